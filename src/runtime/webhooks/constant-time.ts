import { createHmac, timingSafeEqual } from 'node:crypto'

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

/** Whether any candidate signature equals any expected one, both as written in the header. */
export type Comparator = (expected: readonly string[], candidates: readonly string[]) => boolean

/** How many characters an HMAC with this hash is, written in this encoding. */
export function encodedLength(algorithm: string, encoding: 'hex' | 'base64'): number {
  return createHmac(algorithm, 'x').digest(encoding).length
}

/** Whether one candidate signature equals one expected signature, both as written in the header. */
export type PairComparator = (expected: string, candidate: string) => boolean

/**
 * A comparator for signatures of one encoded length, written as the sender writes them: the
 * strings are compared exactly (no second spelling such as uppercase hex passes), with
 * `timingSafeEqual` on the two halves of one buffer made once: a verification runs synchronously,
 * so one buffer per middleware serves every request, and one write fills both halves. A candidate
 * of another length is compared with the expected value itself, so its length shows no early
 * return.
 */
export function pairComparator(length: number): PairComparator {
  const pair = Buffer.alloc(2 * length)
  const want = pair.subarray(0, length)
  const got = pair.subarray(length)
  return (expected, candidate) => {
    // Expected signatures are ASCII of exactly `length` characters (hex or base64 digests);
    // were one not, the `===` below would still refuse every other candidate.
    const sameLength = candidate.length === length
    pair.write(sameLength ? expected + candidate : expected, 0, 'latin1')
    // latin1 writes a character above U+00FF as its low byte alone, so equal bytes are confirmed
    // by `===`. It runs only once the bytes matched, when the sender already holds the signature,
    // so its timing tells nothing; a check for such characters before the write cost a native
    // call on every request.
    return timingSafeEqual(want, sameLength ? got : want) && sameLength && expected === candidate
  }
}

/**
 * Compares every candidate with every expected signature (see `pairComparator`): neither a
 * candidate's length nor an earlier match shortens the work.
 */
export function comparator(length: number): Comparator {
  const equal = pairComparator(length)
  return (expected, candidates) => {
    let found = false
    for (const candidate of candidates) {
      for (const signature of expected) if (equal(signature, candidate)) found = true
    }
    return found
  }
}
