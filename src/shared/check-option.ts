import { optionError } from './error-codes.js'
import { isObject } from './is-object.js'

// Option checks run once, when the option is given: a bad option throws the TypeError of
// `optionError` (error-codes.ts), which names it. Every layer of the package may import this file.

export function checkBoolean(value: boolean | undefined, name: string): boolean | undefined {
  if (value !== undefined && typeof value !== 'boolean') {
    throw optionError('SG_ERR_INVALID_OPTION', `shapeguard: ${subject(name)} must be a boolean`)
  }
  return value
}

export function checkString(value: string | undefined, name: string): string | undefined {
  if (value !== undefined && typeof value !== 'string') {
    throw optionError('SG_ERR_INVALID_OPTION', `shapeguard: ${subject(name)} must be a string`)
  }
  return value
}

export function checkFunction<T>(value: T | undefined, name: string): T | undefined {
  if (value !== undefined && typeof value !== 'function') {
    throw optionError('SG_ERR_INVALID_OPTION', `shapeguard: ${subject(name)} must be a function`)
  }
  return value
}

/** The longest delay a Node timer holds (2³¹−1 ms); a longer one fires at once. */
export const maxTimerMs = 2 ** 31 - 1

/** An integer from `min` to `max` (milliseconds, bytes, seconds), or undefined. */
export function checkInteger(
  value: number | undefined,
  name: string,
  min: number,
  max: number = maxTimerMs,
): number | undefined {
  if (
    value !== undefined &&
    (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
  ) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `shapeguard: ${subject(name)} must be an integer from ${min} to ${max}`,
    )
  }
  return value
}

// An option's path (`cache`, `validation.strings`), as against a call (`handle()`) or an option
// of one (`errorHandler(): debug`).
const optionPath = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/

/**
 * The `<where>:` of a message about one option, before what is wrong with it: an option's path
 * is the where (`cache.private: must be…`); an option of a call is named after the call's where
 * (`errorHandler(): debug must be…`).
 * @example `shapeguard: ${subject('cache.private')} must be a boolean` // "shapeguard: cache.private: must be a boolean"
 */
export function subject(name: string): string {
  return optionPath.test(name) ? `${name}:` : name
}

/**
 * Throws a TypeError naming the first key of `options` that is not in `known`, with the list of
 * the keys that are: a misspelt option (`responce` for `response`) must not be ignored.
 * @param name what takes the options: a function (`handle()`), or an option's path (`cache`),
 * which then prefixes the message (`cache: maxage is not an option`); a name ending in `.` prefixes
 * the key as it is (`createDocs(): logo.` gives `createDocs(): logo.alt is not an option`)
 * @param of what the options are of, when `name` takes several kinds (`the github preset`)
 * @example checkKnownKeys({ bdy: 1 }, ['body', 'query'], 'handle()') // "shapeguard: handle(): bdy is not an option (body, query)"
 */
export function checkKnownKeys(
  options: object,
  known: readonly string[],
  name: string,
  of?: string,
): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      const where = name.endsWith('.') ? `${name}${key}` : `${name}: ${key}`
      const kind = of === undefined ? '' : ` of ${of}`
      throw optionError(
        'SG_ERR_UNKNOWN_OPTION',
        `shapeguard: ${where} is not an option${kind} (${known.join(', ')})`,
      )
    }
  }
}

// An HTTP request (Express's, or any IncomingMessage) by its shape: this file imports nothing, so
// the client exports that share it load no node:http.
const isRequest = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  'method' in value &&
  'headers' in value &&
  typeof (value as { pipe?: unknown }).pipe === 'function'

/**
 * Checks a factory's options: an object whose keys are all in `known`. A request there means the
 * factory itself was mounted (`app.use(errorHandler)`) instead of the middleware it returns.
 * @param name the factory, e.g. `errorHandler()`
 * @example checkOptions(options, ['message'], 'notFoundHandler()')
 */
export function checkOptions(options: unknown, known: readonly string[], name: string): void {
  if (isRequest(options)) {
    throw optionError(
      'SG_ERR_FACTORY_NOT_CALLED',
      `shapeguard: ${name}: makes the middleware, mount app.use(${name}), not app.use(${name.slice(0, -2)})`,
    )
  }
  if (!isObject(options)) {
    throw optionError('SG_ERR_INVALID_OPTION', `shapeguard: ${name}: options must be an object`)
  }
  checkKnownKeys(options, known, name)
}

/**
 * Checks an options object nested in another (`validation.strings`, a route's `sanitize`): absent,
 * or an object (not an array) whose keys are all in `known`.
 * @example checkNested(config.requestId, 'requestId', ['enabled', 'header', 'generator'])
 */
export function checkNested(value: unknown, path: string, known: readonly string[]): void {
  if (value === undefined) return
  if (!isObject(value)) {
    throw optionError('SG_ERR_INVALID_OPTION', `shapeguard: ${path}: must be an object`)
  }
  checkKnownKeys(value, known, path)
}

/**
 * Checks the options of a helper that may be called without any: nothing, or an object whose
 * keys are all in `known`.
 * @example checkOptionalOptions(options, ['req', 'config'], 'mockResponse()')
 */
export function checkOptionalOptions(
  options: unknown,
  known: readonly string[],
  name: string,
): void {
  if (options === undefined) return
  if (!isObject(options)) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `shapeguard: ${name}: options must be an object (${known.join(', ')})`,
    )
  }
  checkKnownKeys(options, known, name)
}
