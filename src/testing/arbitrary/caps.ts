import type { GuardLimits } from '../../runtime/guards/limits.js'
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
}

// Node refuses a request whose headers pass 16 KiB together (431): one value stays well below.
const HEADER_CHARS = 8192
// A cookie travels percent-encoded (up to 9 characters for one) in one Cookie header with the others.
const COOKIE_CHARS = 1000

/** What a request part carries to its schema past the guards (headers: past Node's header limit). */
export function partCaps(part: string, limits: GuardLimits): Caps {
  const array = limits.maxArrayLength
  const arrayBy = `the guards' maxArrayLength (${array})`
  if (part === 'headers')
    return {
      string: HEADER_CHARS,
      stringBy: `what a header carries (${HEADER_CHARS})`,
      array,
      arrayBy,
    }
  if (part === 'cookies' || part === 'signedCookies')
    return {
      string: COOKIE_CHARS,
      stringBy: `what a cookie carries in the Cookie header (${COOKIE_CHARS})`,
      array,
      arrayBy,
    }
  const string = limits.maxStringLength
  return { string, stringBy: `the guards' maxStringLength (${string})`, array, arrayBy }
}

/**
 * Without a guard (`arbitrary()`): near misses past these sizes are not built. A bound that large
 * is broken as well one past it as a million past it, and building the value costs the memory.
 */
export const unguardedCaps: Caps = Object.freeze({
  string: 1_000_000,
  array: 100_000,
  stringBy: 'the largest near miss built (1000000 characters)',
  arrayBy: 'the largest near miss built (100000 items)',
})

/** Whether a string is within `cap` code points. */
export const fitsString = (s: string, cap: number): boolean => !isTooLong(s, cap)
