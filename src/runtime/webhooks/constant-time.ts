import { timingSafeEqual } from 'node:crypto'

/**
 * Whether `candidate` equals `expected`, in time that depends only on `expected`'s length: a
 * candidate of another length is compared with `expected` itself, so its length shows no early
 * return.
 */
export function safeEqual(expected: Buffer, candidate: Buffer): boolean {
  const sameLength = candidate.length === expected.length
  const equal = timingSafeEqual(expected, sameLength ? candidate : expected)
  return equal && sameLength
}

function isLowerHex(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false
  }
  return true
}

/**
 * A signature as written in a header, as bytes, when it is written exactly as the sender writes
 * one: lowercase hex, or canonical padded base64 (so no second spelling of the same bytes, such
 * as uppercase hex or base64 with other unused bits, can pass). Only the candidate's own form is
 * examined here, never the expected value.
 */
function decode(candidate: string, encoding: 'hex' | 'base64', size: number): Buffer | undefined {
  if (encoding === 'hex') {
    return candidate.length === size * 2 && isLowerHex(candidate)
      ? Buffer.from(candidate, 'hex')
      : undefined
  }
  if (candidate.length !== Math.ceil(size / 3) * 4) return undefined
  const bytes = Buffer.from(candidate, 'base64')
  return bytes.length === size && bytes.toString('base64') === candidate ? bytes : undefined
}

/**
 * Whether any candidate signature (as written in a header) equals any expected digest. The
 * digests are compared with `timingSafeEqual`; every well-formed pair is compared, so no pair's
 * result shortens the work for the next.
 */
export function matchesAny(
  expected: readonly Buffer[],
  candidates: readonly string[],
  encoding: 'hex' | 'base64',
): boolean {
  const size = expected[0]?.length ?? 0
  let found = false
  for (const candidate of candidates) {
    const bytes = decode(candidate, encoding, size)
    if (bytes === undefined) continue
    for (const digest of expected) {
      if (safeEqual(digest, bytes)) found = true
    }
  }
  return found
}
