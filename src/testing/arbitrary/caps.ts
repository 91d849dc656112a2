import { defaultLimits, type GuardLimits } from '../../runtime/guards/limits.js'
import { isTooLong } from '../../runtime/guards/sanitize.js'

/**
 * The longest string (in code points, as the guards count) and array a generated value may hold
 * to reach the schema, and what refuses a longer one (for notes).
 */
export interface Caps {
  readonly string: number
  readonly array: number
  readonly stringBy: string
  readonly arrayBy: string
  /** How deep a value may nest (the guards' maxDepth). */
  readonly depth: number
  /**
   * About how many characters the unbounded strings and arrays of one value of the part may take
   * in all (a declared bound is reached whatever this is): a JSON body stays under the small
   * limits apps give their JSON parser, a header or a query under Node's 16 KiB of headers.
   */
  readonly budget: number
}

// Node refuses a request whose headers pass 16 KiB together (431): one value stays well below.
const HEADER_CHARS = 8192
// A cookie travels percent-encoded (up to 9 characters for one) in one Cookie header with the others.
const COOKIE_CHARS = 1000

/** What a request part carries to its schema past the guards (headers: past Node's header limit). */
export function partCaps(part: string, limits: GuardLimits): Caps {
  const array = limits.maxArrayLength
  const arrayBy = `the guards' maxArrayLength (${array})`
  const depth = limits.maxDepth
  if (part === 'headers')
    return {
      string: HEADER_CHARS,
      stringBy: `what a header carries (${HEADER_CHARS})`,
      array,
      arrayBy,
      depth,
      budget: HEADER_CHARS,
    }
  if (part === 'cookies' || part === 'signedCookies')
    return {
      string: COOKIE_CHARS,
      stringBy: `what a cookie carries in the Cookie header (${COOKIE_CHARS})`,
      array,
      arrayBy,
      depth,
      budget: 3 * COOKIE_CHARS,
    }
  const string = limits.maxStringLength
  // A URL travels in the request line, under Node's header limit; the path, as one segment.
  const budget = part === 'body' ? BODY_CHARS : part === 'query' ? HEADER_CHARS / 2 : 2048
  return {
    string,
    stringBy: `the guards' maxStringLength (${string})`,
    array,
    arrayBy,
    depth,
    budget,
  }
}

// What unbounded strings and arrays of a JSON body share: an app's JSON parser refuses a larger
// body with 413 (100 kB by default, often less). Declared bounds are reached whatever this is.
const BODY_CHARS = 1024

/** What `arbitrary()` reaches without a request around its values: a body under the default limits. */
export const defaultReach: Caps = Object.freeze(partCaps('body', defaultLimits))

/**
 * Without a guard (`arbitrary()`): near misses past these sizes are not built. A bound that large
 * is broken as well one past it as a million past it, and building the value costs the memory.
 */
export const unguardedCaps: Caps = Object.freeze({
  string: 1_000_000,
  array: 100_000,
  stringBy: 'the largest near miss built (1000000 characters)',
  arrayBy: 'the largest near miss built (100000 items)',
  depth: defaultLimits.maxDepth,
  budget: 1_000_000,
})

/** Whether a string is within `cap` code points. */
export const fitsString = (s: string, cap: number): boolean => !isTooLong(s, cap)
