import { checkKnownKeys, checkString } from '../../shared/check-option.js'
import { optionError } from '../../shared/error-codes.js'
import type { ClientExportOptions } from './model.js'

const KEYS: readonly (keyof ClientExportOptions)[] = ['seed', 'name', 'baseUrl']

/**
 * Checks the options of `toPostman`, `toInsomnia` or `toBruno` (`fn`): an object of the known
 * keys, each a string. A TypeError names the option.
 */
export function checkExportOptions(options: unknown, fn: string): ClientExportOptions {
  if (options === undefined) return {}
  if (options === null || typeof options !== 'object') {
    throw optionError('SG_ERR_INVALID_OPTION', `shapeguard: ${fn}(): options must be an object`)
  }
  // Key by key, as given, so the first bad one is named (the keys before it are known).
  for (const [key, value] of Object.entries(options)) {
    if (!(KEYS as readonly string[]).includes(key)) checkKnownKeys(options, KEYS, `${fn}()`)
    checkString(value, `${fn}(): ${key}`)
  }
  return options as ClientExportOptions
}
