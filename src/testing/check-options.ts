import { checkKnownKeys } from '../shared/check-option.js'

/**
 * Checks the options object of a testing helper: nothing, or an object with only the keys it
 * knows. A misspelt key (`pth` for `path`) is a TypeError naming the helper and its keys, never
 * silently ignored.
 * @example checkOptions(options, ['req', 'config'], 'mockResponse()')
 */
export function checkOptions(options: unknown, known: readonly string[], name: string): void {
  if (options === undefined) return
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`shapeguard: ${name}: options must be an object (${known.join(', ')})`)
  }
  checkKnownKeys(options, known, name)
}
