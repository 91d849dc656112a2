import type { ClientExportOptions } from './model.js'

const KEYS: readonly (keyof ClientExportOptions)[] = ['seed', 'name', 'baseUrl']

/**
 * Checks the options of `toPostman`, `toInsomnia` or `toBruno` (`fn`): an object of the known
 * keys, each a string. A TypeError names the option, as the docs' checks do (this folder imports
 * nothing of the others, so its one check lives here).
 */
export function checkExportOptions(options: unknown, fn: string): ClientExportOptions {
  if (options === undefined) return {}
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`shapeguard: ${fn} options must be an object`)
  }
  for (const [key, value] of Object.entries(options)) {
    if (!(KEYS as readonly string[]).includes(key)) {
      throw new TypeError(`shapeguard: ${fn}(): ${key} is not an option (${KEYS.join(', ')})`)
    }
    if (value !== undefined && typeof value !== 'string') {
      throw new TypeError(`shapeguard: ${fn} ${key} must be a string`)
    }
  }
  return options as ClientExportOptions
}
