// What a log line must never carry raw: C0 controls (CR, LF, ESC, …), DEL, C1 controls (NEL,
// CSI, …) and the line separators U+2028 and U+2029. Terminals act on them and line splitters
// (Python's splitlines, JavaScript tooling) break lines at them, so a message could forge a line.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/g
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_OR_NEWLINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g
// JSON.stringify escapes C0 controls already; these it leaves raw.
const JSON_RAW = /[\u007f-\u009f\u2028\u2029]/g

function toEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
}

function replaceAll(text: string, re: RegExp): string {
  re.lastIndex = 0
  if (!re.test(text)) return text
  re.lastIndex = 0
  return text.replace(re, toEscape)
}

/** `text` with control characters and line separators written as `\uXXXX`; LF kept when asked. */
export function printable(text: string, keepNewlines = false): string {
  return replaceAll(text, keepNewlines ? CONTROL : CONTROL_OR_NEWLINE)
}

/**
 * JSON text (from `JSON.stringify`) with DEL, C1 controls and U+2028/U+2029 escaped too: still
 * the same JSON value, and always one line for every splitter.
 */
export function safeJson(json: string): string {
  return replaceAll(json, JSON_RAW)
}
