/** The IDs of a trace context, each lower-case hex: 32, 16 and 2 digits. */
export interface TraceIds {
  readonly traceId: string
  readonly spanId: string
  readonly traceFlags: string
}

// `00-` + 32 + `-` + 16 + `-` + 2: the whole of a version-00 header, and the least any version has.
const LENGTH = 55

function isLowerHex(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i)
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) return false
  }
  return true
}

function isZero(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (text.charCodeAt(i) !== 0x30) return false
  return true
}

/** True for `length` lower-case hex digits, not all zero: a valid trace or span ID. */
export function isHexId(text: string, length: number): boolean {
  return text.length === length && isLowerHex(text, 0, length) && !isZero(text, 0, length)
}

/**
 * The IDs a W3C `traceparent` header carries, or undefined when it is not valid by the W3C Trace
 * Context rules: `version-traceid-parentid-flags`, lower-case hex only; version `ff` is invalid;
 * version `00` is exactly 55 characters; a later version is at least that long and, when longer,
 * goes on with a `-` (what follows belongs to that version and is not read); an all-zero trace or
 * parent ID is invalid. Only the first 56 characters are ever read, so a long header costs no more
 * than a short one; a repeated header (Node joins the copies with `, `) is invalid.
 * @example parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')
 */
export function parseTraceparent(header: unknown): TraceIds | undefined {
  if (typeof header !== 'string' || header.length < LENGTH) return undefined
  if (!isLowerHex(header, 0, 2)) return undefined
  const version = header.slice(0, 2)
  if (version === 'ff') return undefined
  if (
    version === '00' ? header.length !== LENGTH : header.length > LENGTH && header[LENGTH] !== '-'
  )
    return undefined
  if (header[2] !== '-' || header[35] !== '-' || header[52] !== '-') return undefined
  if (!isLowerHex(header, 3, 35) || isZero(header, 3, 35)) return undefined
  if (!isLowerHex(header, 36, 52) || isZero(header, 36, 52)) return undefined
  if (!isLowerHex(header, 53, 55)) return undefined
  return {
    traceId: header.slice(3, 35),
    spanId: header.slice(36, 52),
    traceFlags: header.slice(53, 55),
  }
}
