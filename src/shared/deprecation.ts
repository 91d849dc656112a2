import { checkKnownKeys } from './check-option.js'
import { optionError } from './error-codes.js'
import { isObject } from './is-object.js'

/** A date a deprecation is given: a `Date`, or a string `Date` reads (ISO 8601: `'2027-01-31'`). */
export type DeprecationDate = Date | string

/**
 * A route's `deprecated`: `true`, or when it was deprecated (`since`) and when it stops answering
 * (`sunset`).
 */
export type DeprecatedOption =
  | boolean
  | { readonly since?: DeprecationDate; readonly sunset?: DeprecationDate }

/** A deprecation resolved once, at definition: the header values a deprecated route sends. */
export interface ResolvedDeprecation {
  /** `Deprecation` (RFC 9745): an sf-date, `@` and seconds since the epoch; `@0` without `since`. */
  readonly deprecation: string
  /** `Sunset` (RFC 8594): an HTTP-date; undefined without `sunset`. */
  readonly sunset: string | undefined
  /** The day of `sunset` (`2027-03-01`, UTC), as the document's `x-sunset` says it. */
  readonly sunsetDay: string | undefined
  /** `Link` to the route's `externalDocs`, `rel="deprecation"`; undefined without them. */
  readonly link: string | undefined
}

function dateOf(value: unknown, where: string): Date {
  const date = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : null
  if (date === null || !Number.isFinite(date.getTime()))
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `shapeguard: ${where} must be a Date or a date string ('2027-01-31')`,
    )
  return date
}

// A URL in a Link header sits between < and >: visible ASCII only (Node refuses a header with
// other characters), and nothing that ends the URL or the header.
const linkable = /^[\x21-\x7e]+$/
const unlinkable = /[<>"]/

/**
 * Checks and resolves a route's `deprecated` with its `externalDocs`; undefined when the route is
 * not deprecated. Throws at definition naming the field at fault.
 * @param where the route's field as errors name it: `validate(): deprecated`
 */
export function resolveDeprecation(
  option: unknown,
  externalDocs: { readonly url?: unknown } | undefined,
  where: string,
): ResolvedDeprecation | undefined {
  if (option === undefined || option === false) return undefined
  if (option !== true && !isObject(option))
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `shapeguard: ${where} must be true, or { since?, sunset? } with dates`,
    )
  let since: Date | undefined
  let sunset: Date | undefined
  if (option !== true) {
    checkKnownKeys(option, ['since', 'sunset'], `${where}.`)
    if (option.since !== undefined) since = dateOf(option.since, `${where}.since`)
    if (option.sunset !== undefined) sunset = dateOf(option.sunset, `${where}.sunset`)
  }
  if (since !== undefined && sunset !== undefined && sunset < since)
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `shapeguard: ${where}.sunset is before its since: a route stops answering after it is deprecated`,
    )
  const url = externalDocs?.url
  return {
    deprecation: `@${since === undefined ? 0 : Math.floor(since.getTime() / 1000)}`,
    sunset: sunset?.toUTCString(),
    sunsetDay: sunset?.toISOString().slice(0, 10),
    link:
      typeof url === 'string' && linkable.test(url) && !unlinkable.test(url)
        ? `<${url}>; rel="deprecation"; type="text/html"`
        : undefined,
  }
}
