/**
 * Escapes a literal for use inside a regular expression: only syntax characters, so the result
 * is also valid under the `u` flag (where any other identity escape is an error).
 * @example new RegExp(`${escapeRegex('1.5$')}$`) // matches strings ending in "1.5$"
 */
export const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
