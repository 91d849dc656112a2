// The client's filename as a handler may use it: a name, never a path, never a control.

/** The longest name kept, in UTF-16 code units (file systems allow 255 bytes; most names are ASCII). */
export const MAX_NAME = 255

/**
 * The longest filename a client may send, as sent (a path included): longer than any file
 * system's path, so only a hostile client sends one; it is refused rather than cut.
 */
export const MAX_SENT_NAME = 1024

/**
 * Whether a code point is dropped from a name: C0 and C1 controls, DEL, the bidirectional
 * controls that make `gnp.exe` read as `exe.png` (U+061C, U+200E–U+200F, U+202A–U+202E,
 * U+2066–U+2069), zero-width and byte-order marks, lone surrogates, and the characters Windows
 * refuses in a name (`<>:"|?*`) besides the path separators.
 */
function dropped(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x061c ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) ||
    code === 0xfeff ||
    (code >= 0xd800 && code <= 0xdfff) ||
    code === 0x3c ||
    code === 0x3e ||
    code === 0x3a ||
    code === 0x22 ||
    code === 0x7c ||
    code === 0x3f ||
    code === 0x2a
  )
}

/**
 * The client's filename reduced to its last path segment (after `/` or `\`), with control,
 * bidirectional and reserved characters removed, at most `MAX_NAME` code units (the extension
 * kept); `.` and `..` become empty. Never throws; an absent name is `''`.
 * @example safeFilename('..\\..\\C:\\evil\u202Egnp.exe') // 'evilgnp.exe'
 */
export function safeFilename(raw: string | undefined): string {
  if (raw === undefined) return ''
  const cut = Math.max(raw.lastIndexOf('/'), raw.lastIndexOf('\\'))
  let name = ''
  for (const char of raw.slice(cut + 1).normalize('NFC')) {
    if (!dropped(char.codePointAt(0)!)) name += char
  }
  name = name.trim()
  if (name === '.' || name === '..') return ''
  if (name.length <= MAX_NAME) return name
  const dot = name.lastIndexOf('.')
  const extension = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : ''
  return clip(name.slice(0, MAX_NAME - extension.length)) + extension
}

// A cut that fell inside a surrogate pair drops its lone high half.
const clip = (text: string): string => {
  const last = text.charCodeAt(text.length - 1)
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, -1) : text
}
