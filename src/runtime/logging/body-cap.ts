import { safeJson } from './printable.js'

/** A logged body, as a JSON record and as a pretty line carry it. */
export interface CappedBody {
  /** The (redacted) body when its JSON fits the cap, else that JSON cut to the cap, marked. */
  readonly value: unknown
  /** The body's JSON, cut and marked the same way when it does not fit. */
  readonly json: string
}

// The UTF-8 size of the next unit of `json` at `i` (an escape, a surrogate pair or one
// character) and how many UTF-16 code units it takes: a cut never splits one.
// JSON.stringify writes lone surrogates as escapes, so a raw high surrogate starts a pair.
function unitAt(json: string, i: number): [bytes: number, length: number] {
  const c = json.charCodeAt(i)
  if (c === 0x5c /* \ */) {
    const length = json.charCodeAt(i + 1) === 0x75 /* u */ ? 6 : 2
    return [length, length]
  }
  if (c < 0x80) return [1, 1]
  if (c < 0x800) return [2, 1]
  if (c >= 0xd800 && c <= 0xdbff) return [4, 2]
  return [3, 1]
}

/**
 * `value` as the request logger writes a body: whole when its JSON takes at most `maxBytes`
 * UTF-8 bytes, else that JSON's first `maxBytes` bytes (never part of an escape or of a surrogate
 * pair) followed by `…[truncated N bytes]`, N being the bytes left out. A body a guard refused
 * can be megabytes: its log line stays this small.
 * @param value a redacted body (JSON-safe, see `createRedactor`)
 * @example capBody({ text: 'x'.repeat(5000) }, 16).json // '{"text":"xxxxxxx…[truncated 4995 bytes]'
 */
export function capBody(value: unknown, maxBytes: number): CappedBody {
  const json = safeJson(JSON.stringify(value) ?? 'undefined')
  // No character takes more than three bytes per UTF-16 code unit.
  if (json.length * 3 <= maxBytes) return { value, json }
  const total = Buffer.byteLength(json)
  if (total <= maxBytes) return { value, json }
  let bytes = 0
  let end = 0
  while (end < json.length) {
    const [size, length] = unitAt(json, end)
    if (bytes + size > maxBytes) break
    bytes += size
    end += length
  }
  const cut = `${json.slice(0, end)}…[truncated ${total - bytes} bytes]`
  return { value: cut, json: cut }
}
