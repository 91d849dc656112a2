/** A token of the global `response.shape`: which envelope value a renamed field holds. */
export type ShapeToken = '{success}' | '{data}' | '{message}'

/** Global envelope renaming: new field name → token, e.g. `{ ok: '{success}', result: '{data}' }`. */
export type ResponseShape = Readonly<Record<string, ShapeToken>>

/** The error envelope's `error` field. */
export interface ErrorBody {
  readonly code: string
  readonly message: string
  readonly details: unknown
}

import type { JsonWriter } from '../../engine/compile/compile-json.js'
import { quote } from '../../engine/compile/json-text.js'
import { optionError } from '../../shared/error-codes.js'
import type { CompiledShape } from '../core/config.js'

const tokens: Record<ShapeToken, 'success' | 'data' | 'message'> = {
  '{success}': 'success',
  '{data}': 'data',
  '{message}': 'message',
}

function errorBody(code: string, message: string, details: unknown): ErrorBody {
  return Object.freeze({ code, message, details: details === undefined ? null : details })
}

/** The default envelope, as object literals (one hidden class each). */
export const defaultShape: CompiledShape = Object.freeze({
  success: (data: unknown, message: string) => Object.freeze({ success: true, message, data }),
  successJson(write: JsonWriter, data: unknown, message: unknown) {
    if (typeof message !== 'string') return undefined
    const text = write(data, 'data')
    if (text === undefined) return undefined
    return `{"success":true,"message":${quote(message)},"data":${text}}`
  },
  error: (code: string, message: string, details: unknown) =>
    Object.freeze({ success: false, message, error: errorBody(code, message, details) }),
})

/**
 * Compiles `response.shape`; throws at mount time on a value that is not a token, and on the
 * field name `__proto__` (an assignment would set the envelope's prototype, not a field).
 * Error envelopes keep the renamed `{success}` and `{message}` fields and the `error` object.
 */
export function compileShape(shape: ResponseShape | undefined): CompiledShape {
  if (shape === undefined) return defaultShape
  const fields: Array<readonly [string, 'success' | 'data' | 'message']> = []
  for (const [name, token] of Object.entries(shape)) {
    const kind = Object.hasOwn(tokens, token) ? tokens[token] : undefined
    if (kind === undefined) {
      throw optionError(
        'SG_ERR_ENVELOPE_SHAPE',
        `shapeguard: response.shape.${name}: must be one of {success}, {data}, {message}, got ${JSON.stringify(token)}`,
      )
    }
    if (name === '__proto__') {
      throw optionError(
        'SG_ERR_ENVELOPE_SHAPE',
        'shapeguard: response.shape: cannot name a field __proto__',
      )
    }
    fields.push([name, kind])
  }
  const errorFields = fields.filter(([, kind]) => kind !== 'data')
  return Object.freeze({
    successJson: successJsonOf(fields),
    success(data: unknown, message: string) {
      const out: Record<string, unknown> = {}
      for (const [name, kind] of fields) {
        out[name] = kind === 'success' ? true : kind === 'message' ? message : data
      }
      return Object.freeze(out)
    },
    error(code: string, message: string, details: unknown) {
      const out: Record<string, unknown> = {}
      for (const [name, kind] of errorFields) out[name] = kind === 'success' ? false : message
      out.error = errorBody(code, message, details)
      return Object.freeze(out)
    },
  })
}

type Field = readonly [string, 'success' | 'data' | 'message']
const noJson = () => undefined

// The renamed envelope's text, field by field in the order an object's own keys are written
// (array-index names first). Left to JSON.stringify where the data is not in it exactly once
// (its text could depend on the key a toJSON method is given).
function successJsonOf(fields: readonly Field[]): CompiledShape['successJson'] {
  if (fields.filter(([, kind]) => kind === 'data').length !== 1) return noJson
  const probe: Record<string, Field> = Object.create(null)
  for (const field of fields) probe[field[0]] = field
  const ordered = Object.keys(probe).map((name, i) => {
    const [, kind] = probe[name]!
    return [`${i === 0 ? '{' : ','}${JSON.stringify(name)}:`, name, kind] as const
  })
  return function successJson(write, data, message) {
    if (typeof message !== 'string') return undefined
    let text = ''
    for (const [prefix, name, kind] of ordered) {
      const part =
        kind === 'success' ? 'true' : kind === 'message' ? quote(message) : write(data, name)
      if (part === undefined) return undefined
      text += prefix + part
    }
    return `${text}}`
  }
}
