// Null byte, zero-width space / non-joiner / joiner, word joiner, BOM, bidi embeddings and
// overrides (U+202A–U+202E) and isolates (U+2066–U+2069). A single character class: every
// match attempt is one step, so a scan is linear in the string whatever its content.
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing U+0000 is the point
const hostile = /[\u0000\u200B-\u200D\u2060\uFEFF\u202A-\u202E\u2066-\u2069]/
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing U+0000 is the point
const hostileAll = /[\u0000\u200B-\u200D\u2060\uFEFF\u202A-\u202E\u2066-\u2069]/g

/** Whether `s` holds a character that sanitising removes; one scan, no allocation. */
export function hasHostileChars(s: string): boolean {
  return hostile.test(s)
}

// The same test as `hostile`, as a loop: for the short strings of most bodies a call into the
// regex engine costs more than looking at each character (one comparison below U+200B).
function hostileShort(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x200b) {
      if (c === 0) return true
    } else if (
      c <= 0x200d ||
      c === 0x2060 ||
      c === 0xfeff ||
      (c >= 0x202a && c <= 0x202e) ||
      (c >= 0x2066 && c <= 0x2069)
    ) {
      return true
    }
  }
  return false
}

/** `s` without null bytes, zero-width characters and bidi controls; `s` itself when clean. */
export function sanitizeString(s: string): string {
  const dirty = s.length <= 32 ? hostileShort(s) : hostile.test(s)
  return dirty ? s.replace(hostileAll, '') : s
}

/**
 * Whether `s` is longer than `max` characters (code points, as zod counts them). A string of at
 * most `max` UTF-16 units, the common case, costs one comparison.
 */
export function isTooLong(s: string, max: number): boolean {
  const units = s.length
  if (units <= max) return false
  if (units > 2 * max) return true
  let points = units
  for (let i = 0; i < units - 1; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) {
        points--
        i++
      }
    }
  }
  return points > max
}
