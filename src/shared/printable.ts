// Control characters (C0, DEL, C1) and the line and paragraph separators, as `\uXXXX`.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const unprintable = /[\x00-\x1f\x7f-\x9f\u2028\u2029]/g

/**
 * Text from a user's document (a key, a pointer, an error's reason) made one printable line: a
 * newline in a key cannot start another line of a report, nor a GitHub Actions workflow command.
 */
export const printable = (text: string): string =>
  text.replace(unprintable, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
