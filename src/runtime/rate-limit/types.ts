import type { Request } from 'express'
import type { Store as ExpressRateLimitStore } from 'express-rate-limit'

/** A key's window: how many requests it counted, and when it ends (epoch milliseconds). */
export interface RateLimitEntry {
  count: number
  reset: number
}

/**
 * The plain store contract: read and write a key's window. Any storage works; shapeguard runs the
 * window rules, and orders the calls for one key within a process, so a process never loses a
 * count to a check-then-set race (several processes sharing such a store can).
 */
export interface RateLimitGetSetStore {
  get(key: string): Promise<RateLimitEntry | null | undefined> | RateLimitEntry | null | undefined
  set(key: string, entry: RateLimitEntry): Promise<unknown> | unknown
}

/**
 * A store that counts atomically: opens the key's window (`windowMs` long) when there is none or it
 * has ended, and counts the request. With `max` (shapeguard always gives the route's), a full window
 * is left unchanged and the answer is one past what it held, so `count > max` means the request is
 * over the limit; without it the count always grows. Returns the window after the request.
 * `redisStore()` is one.
 */
export interface RateLimitIncrementStore {
  increment(key: string, windowMs: number, max?: number): Promise<RateLimitEntry> | RateLimitEntry
}

/** Where a route's counts live: a plain or atomic store of ours, or any express-rate-limit `Store`. */
export type RateLimitStore = RateLimitGetSetStore | RateLimitIncrementStore | ExpressRateLimitStore

/** A per-route rate limit. */
export interface RateLimitOptions {
  /** The window's length in milliseconds. */
  readonly windowMs: number
  /** How many requests one key may make in a window; the next gets 429 RATE_LIMIT_EXCEEDED. */
  readonly max: number
  /** The 429 message. @default 'Too many requests' */
  readonly message?: string
  /** Where counts live. @default an in-memory store of this route, per app, in this process */
  readonly store?: RateLimitStore
  /**
   * Whom a request counts for: it replaces the client part of the key only. The store key is
   * always the route as registered (method, mount paths and pattern, so every spelling Express
   * routes to the route — case, a trailing slash, percent-encoding, parameter values — counts as
   * one) and then this function's string (`POST /v1/login|203.0.113.7`), so two routes of one app
   * sharing a store never share a count (two apps sharing one need a store prefix each).
   * @default the client: `req.ip` without a port, IPv6 by its /56 prefix, anything that is not an
   * IP address as one shared client
   */
  readonly keyGenerator?: (req: Request) => string
  /**
   * What a store that throws or does not answer within `storeTimeoutMs` does: `true` lets the
   * request through (and logs an error at most once a minute); `false` answers 503
   * RATE_LIMIT_UNAVAILABLE. @default true
   */
  readonly failOpen?: boolean
  /** How long a store may take before it counts as failed. @default 1000 */
  readonly storeTimeoutMs?: number
}
