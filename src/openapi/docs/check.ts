import { checkKnownKeys, subject } from '../../shared/check-option.js'
import { optionError } from '../../shared/error-codes.js'
import type { MisuseCode } from '../../shared/misuse-codes.js'

// Options of shapeguard/openapi are checked once, when the middleware or document is made: a bad
// option throws the option error of the registry, naming it. The value checks of the docs pages
// live here; the key check is the package's one (shared/check-option.ts).

export function fail(
  name: string,
  expectation: string,
  code: MisuseCode = 'SG_ERR_INVALID_OPTION',
): never {
  throw optionError(code, `shapeguard: ${subject(name)} must be ${expectation}`)
}

/**
 * Throws the option error naming the first key of `options` that is not in `known`, with the list
 * of those that are. `path` (`logo.`) prefixes a nested object's keys.
 * @example knownKeys({ titel: 'x' }, ['title'], 'serveScalar()') // "shapeguard: serveScalar(): titel is not an option (title)"
 */
export function knownKeys(options: object, known: readonly string[], fn: string, path = ''): void {
  checkKnownKeys(options, known, path === '' ? fn : `${fn}: ${path}`)
}

export function optionalBoolean(value: unknown, name: string): boolean | undefined {
  if (value !== undefined && typeof value !== 'boolean') fail(name, 'a boolean')
  return value as boolean | undefined
}

export function optionalString(value: unknown, name: string): string | undefined {
  if (value !== undefined && typeof value !== 'string') fail(name, 'a string')
  return value as string | undefined
}

export function optionalInteger(value: unknown, name: string, min: number): number | undefined {
  if (value !== undefined && !(Number.isInteger(value) && (value as number) >= min)) {
    fail(name, `an integer >= ${min}`)
  }
  return value as number | undefined
}

export function optionalChoice<T extends string>(
  value: unknown,
  name: string,
  choices: readonly T[],
): T | undefined {
  if (value !== undefined && !choices.includes(value as T)) {
    fail(name, `one of ${choices.map((c) => `'${c}'`).join(', ')}`)
  }
  return value as T | undefined
}

/** A URL a page may link to: http(s), a data: image, or a relative path — never `javascript:`. */
export function optionalUrl(value: unknown, name: string): string | undefined {
  const url = optionalString(value, name)
  if (url === undefined) return undefined
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url.trim())?.[1]?.toLowerCase()
  const allowed =
    scheme === undefined
      ? ![...url].some((c) => c.charCodeAt(0) < 0x20 || c === '\\')
      : scheme === 'http' || scheme === 'https' || /^data:image\/(png|gif|jpeg|webp);/i.test(url)
  if (!allowed || url.trim() === '') {
    fail(name, 'an http(s) URL, a relative path or a data:image URL')
  }
  return url
}

/** A CSS colour value that cannot end its declaration (`#123`, `rgb(…)`, `navy`). */
export function optionalCssColor(value: unknown, name: string): string | undefined {
  const color = optionalString(value, name)
  if (color !== undefined && !/^[#a-zA-Z0-9(),.%\s-]{1,64}$/.test(color)) {
    fail(name, 'a CSS colour (#rgb, rgb(…), a colour name)')
  }
  return color
}
