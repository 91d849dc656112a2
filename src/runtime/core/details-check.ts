import { toAdapter } from '../../adapters/resolve.js'
import type { SchemaAdapter } from '../../engine/adapter.js'
import { compile, type PartValidator } from '../../engine/compile/compile.js'
import { checkKnownKeys } from '../../shared/check-option.js'
import { optionError, unprefixed } from '../../shared/error-codes.js'
import { isObject } from '../../shared/is-object.js'

// What `AppError.define()` checks when it is called, and what its factories check in development:
// the details a handler raises an error with match the schema the error documents.

const defineKeys = ['details']

/**
 * Checks `AppError.define()`'s arguments; returns the adapter of its `details` schema, if any.
 * Throws a misuse TypeError naming the code and the option at fault.
 */
export function checkDefinition(
  code: unknown,
  status: unknown,
  message: unknown,
  options: unknown,
): SchemaAdapter | undefined {
  if (typeof code !== 'string' || code === '')
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      'shapeguard: AppError.define(): code must be a non-empty string',
    )
  const where = `AppError.define(${JSON.stringify(code)})`
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599)
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `shapeguard: ${where}: status must be an integer from 400 to 599`,
    )
  if (message !== undefined && typeof message !== 'string')
    throw optionError('SG_ERR_INVALID_OPTION', `shapeguard: ${where}: message must be a string`)
  if (options === undefined) return undefined
  if (!isObject(options))
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `shapeguard: ${where}: options must be an object ({ details })`,
    )
  checkKnownKeys(options, defineKeys, where)
  const schema = options.details
  if (schema === undefined) return undefined
  try {
    return toAdapter(schema)
  } catch (err) {
    throw optionError(
      'SG_ERR_NOT_A_SCHEMA',
      `shapeguard: ${where}: details: ${unprefixed((err as Error).message)}`,
    )
  }
}

/**
 * A check of the details a factory is called with, against its schema: compiled on first use,
 * run only in development (`NODE_ENV` read at each call, so production pays one comparison).
 * A mismatch throws a programmer error (a TypeError, answered 500) naming the code, the path and
 * what the schema expects, never the value. An asynchronous schema is not checked: the factory
 * returns its error synchronously.
 */
export function detailsCheck(code: string, adapter: SchemaAdapter): (details: unknown) => void {
  let validator: PartValidator | undefined
  return (details) => {
    if (process.env.NODE_ENV === 'production' || adapter.async) return
    validator ??= compile(adapter)
    const result = validator.validate(details, false)
    if (result instanceof Promise) {
      result.catch(() => {})
      return
    }
    if (result.success) return
    const issue = result.issues[0]
    const path = ['details', ...(issue?.path ?? [])].join('.')
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `shapeguard: the ${code} error: ${path}: ${issue?.message ?? 'does not match'}, raise it with details its AppError.define() schema accepts`,
    )
  }
}
