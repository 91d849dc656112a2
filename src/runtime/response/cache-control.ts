import type { Response } from 'express'
import { checkKnownKeys } from '../../shared/check-option.js'
import { optionError } from '../../shared/error-codes.js'
import type { Step } from '../core/step.js'

/**
 * Cache-Control hints: the header is set on the route's successful answers (status below 400)
 * only, after validation succeeded.
 */
export interface CacheOptions {
  /** Seconds a browser may reuse the answer (`max-age`); not needed with `noStore`. */
  readonly maxAge?: number
  /** Only the browser may keep it (`private`), not a shared cache or CDN. */
  readonly private?: boolean
  /**
   * Nothing may keep it (`no-store`): the header is `no-store` alone, a `maxAge` beside it is
   * ignored and `vary` still applies; with `private`, `sMaxAge` or `staleWhileRevalidate` the route
   * is refused when defined (SG_ERR_OPTION_CONFLICT).
   */
  readonly noStore?: boolean
  /** Seconds a shared cache or CDN may reuse it (`s-maxage`). */
  readonly sMaxAge?: number
  /** Seconds a cache may serve it stale while it revalidates (`stale-while-revalidate`). */
  readonly staleWhileRevalidate?: number
  /** Request headers the answer varies by, added to `Vary` (e.g. `['Accept-Language']`). */
  readonly vary?: readonly string[]
}

const known = ['maxAge', 'private', 'noStore', 'sMaxAge', 'staleWhileRevalidate', 'vary']
// RFC 9110 field names (tokens).
const fieldName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

function seconds(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `shapeguard: cache.${name}: must be a whole number of seconds, 0 or more`,
    )
  }
  return value
}

function flag(value: unknown, name: string): boolean {
  if (value === undefined) return false
  if (typeof value !== 'boolean')
    throw optionError('SG_ERR_INVALID_OPTION', `shapeguard: cache.${name}: must be a boolean`)
  return value
}

/**
 * The Cache-Control value of a route's `cache` option; throws, when the route is defined, on a
 * value or combination that cannot mean what was asked.
 */
export function cacheControl(options: CacheOptions): string {
  if (typeof options !== 'object' || options === null) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      'shapeguard: cache: must be an object: { maxAge, private, noStore, … }',
    )
  }
  checkKnownKeys(options, known, 'cache')
  const maxAge = seconds(options.maxAge, 'maxAge')
  const sMaxAge = seconds(options.sMaxAge, 'sMaxAge')
  const stale = seconds(options.staleWhileRevalidate, 'staleWhileRevalidate')
  const isPrivate = flag(options.private, 'private')
  if (flag(options.noStore, 'noStore')) {
    if (isPrivate || sMaxAge !== undefined || stale !== undefined) {
      throw optionError(
        'SG_ERR_OPTION_CONFLICT',
        'shapeguard: cache.noStore: means nothing may keep the answer, remove private, sMaxAge and staleWhileRevalidate',
      )
    }
    return 'no-store'
  }
  if (maxAge === undefined) {
    throw optionError(
      'SG_ERR_MISSING_OPTION',
      'shapeguard: cache: needs maxAge (seconds), or noStore: true',
    )
  }
  if (isPrivate && sMaxAge !== undefined) {
    throw optionError(
      'SG_ERR_OPTION_CONFLICT',
      'shapeguard: cache.sMaxAge: is for shared caches (CDNs), which a private answer never reaches, remove one of them',
    )
  }
  let header = `${isPrivate ? 'private' : 'public'}, max-age=${maxAge}`
  if (sMaxAge !== undefined) header += `, s-maxage=${sMaxAge}`
  if (stale !== undefined) header += `, stale-while-revalidate=${stale}`
  return header
}

function varyFields(vary: unknown): readonly string[] {
  if (vary === undefined) return []
  if (
    !Array.isArray(vary) ||
    vary.length === 0 ||
    !vary.every((f) => typeof f === 'string' && fieldName.test(f))
  ) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      'shapeguard: cache.vary: must be a non-empty list of header names',
    )
  }
  return Object.freeze([...vary])
}

// Statuses a cache may keep under the route's header: successes, and a 304, which must repeat it.
function cacheable(status: number): boolean {
  return (status >= 200 && status < 300) || status === 304
}

/**
 * The Cache-Control step, after validation and before `transform`: reached only once validation
 * succeeded, it arranges for the header (and `Vary`) to be written when the answer's head is, and
 * only if that answer is a success or a 304, so an error thrown later by the handler or sent with
 * `res.fail` never carries it. A Cache-Control the handler set itself is kept.
 */
export function cacheStep(options: CacheOptions): Step {
  const header = cacheControl(options)
  const vary = varyFields(options.vary)
  return function cache(_req, res) {
    const writeHead = res.writeHead
    res.writeHead = function (this: Response, ...args: unknown[]) {
      res.writeHead = writeHead
      const status = typeof args[0] === 'number' ? args[0] : this.statusCode
      if (cacheable(status)) {
        if (!this.hasHeader('Cache-Control')) this.setHeader('Cache-Control', header)
        for (const field of vary) this.vary(field)
      }
      return (writeHead as (...a: unknown[]) => Response).apply(this, args)
    } as Response['writeHead']
    return undefined
  }
}
