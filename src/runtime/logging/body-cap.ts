import { safeJson } from './printable.js'
import type { Redactor } from './redactor.js'

/** A logged body, as a JSON record and as a pretty line carry it. */
export interface CappedBody {
  /** The redacted body when its JSON fits the cap, else that JSON cut to the cap, marked. */
  readonly value: unknown
  /** The body's JSON, cut and marked the same way when it does not fit. */
  readonly json: string
}

/** What ends a body cut at the cap. */
const TRUNCATED = '…[truncated]'

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
 * A body as the request logger writes it, redacted by `redact` (at `at`): whole when its JSON
 * takes at most `maxBytes` UTF-8 bytes, else that JSON's first `maxBytes` bytes (never part of an
 * escape or of a surrogate pair) followed by `…[truncated]`. The walk stops once the JSON is
 * known to pass the cap, so a body of 200,000 keys costs about what its first kilobytes do.
 * @example capBody(redact, { text: 'x'.repeat(5000) }, [], 16).json // '{"text":"xxxxxxx…[truncated]'
 */
export function capBody(
  redact: Redactor,
  body: unknown,
  at: readonly string[],
  maxBytes: number,
): CappedBody {
  const budget = { left: maxBytes }
  const value = redact(body, at, budget)
  // `value` is whole, or the part of it whose JSON starts the whole one's and passes the cap.
  const json = safeJson(JSON.stringify(value) ?? 'undefined')
  // No character takes more than three bytes per UTF-16 code unit.
  if (budget.left >= 0 && (json.length * 3 <= maxBytes || Buffer.byteLength(json) <= maxBytes)) {
    return { value, json }
  }
  let bytes = 0
  let end = 0
  while (end < json.length) {
    const [size, length] = unitAt(json, end)
    if (bytes + size > maxBytes) break
    bytes += size
    end += length
  }
  const cut = json.slice(0, end) + TRUNCATED
  return { value: cut, json: cut }
}
