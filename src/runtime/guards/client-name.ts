import { printable } from '../logging/printable.js'
import { sanitizeString } from './sanitize.js'

/** The longest client name an answer shows; a longer one is clipped with `…`. */
export const CLIENT_NAME_MAX = 64

/**
 * A name the client chose (a form field's, a cookie's) as an answer's `details` may show it: no
 * bidi or zero-width character, controls written as `\uXXXX`, at most `CLIENT_NAME_MAX` characters.
 */
export function clientName(name: string): string {
  const clean = printable(sanitizeString(name))
  return clean.length > CLIENT_NAME_MAX ? `${clean.slice(0, CLIENT_NAME_MAX)}…` : clean
}
