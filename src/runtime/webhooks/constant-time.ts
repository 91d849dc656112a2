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

/**
 * Whether any candidate signature (as written in a header) equals any expected one. Every pair is
 * compared: no pair's result shortens the work for the next.
 */
export function matchesAny(expected: readonly string[], candidates: readonly string[]): boolean {
  let found = false
  for (const text of expected) {
    const want = Buffer.from(text, 'latin1')
    for (const candidate of candidates) {
      if (safeEqual(want, Buffer.from(candidate, 'latin1'))) found = true
    }
  }
  return found
}
