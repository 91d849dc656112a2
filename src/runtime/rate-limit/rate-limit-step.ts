import type { Request, Response } from 'express'
import {
  checkBoolean,
  checkFunction,
  checkKnownKeys,
  checkString,
} from '../../shared/check-option.js'
import { optionError } from '../../shared/error-codes.js'
import { raise } from '../core/app-error.js'
import type { Step } from '../core/step.js'
import { countRateLimitRejection } from '../telemetry/metrics.js'
import { clientOf } from './client-key.js'
import { checkStore, counterFor } from './counter.js'
import { routeKeys } from './route-key.js'
import { reportStoreFailure, StoreFailure } from './store-failures.js'
import type { RateLimitEntry, RateLimitOptions } from './types.js'

const known = ['windowMs', 'max', 'message', 'store', 'keyGenerator', 'failOpen', 'storeTimeoutMs']

function checkCount(value: unknown, name: string, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `shapeguard: rateLimit.${name}: must be an integer of at least ${min}`,
    )
  }
  return value
}

function checkOptions(options: RateLimitOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      'shapeguard: rateLimit: must be an object: { windowMs, max, … }',
    )
  }
  checkKnownKeys(options, known, 'rateLimit')
}

/**
 * The rate-limit step of a route (after the pre-parse guards, before validation), checked when
 * the route is defined. Every answer after it carries `RateLimit-Limit`, `RateLimit-Remaining` and
 * `RateLimit-Reset`; a request over the limit gets 429 RATE_LIMIT_EXCEEDED with `Retry-After`.
 * With the memory store it runs synchronously: no promise, no wait.
 */
export function rateLimitStep(options: RateLimitOptions): Step {
  checkOptions(options)
  const windowMs = checkCount(options.windowMs, 'windowMs', 1)
  const max = checkCount(options.max, 'max', 0)
  const message = checkString(options.message, 'rateLimit.message')
  const keyGenerator = checkFunction(options.keyGenerator, 'rateLimit.keyGenerator') ?? clientOf
  const failOpen = checkBoolean(options.failOpen, 'rateLimit.failOpen') ?? true
  const timeoutMs =
    options.storeTimeoutMs === undefined
      ? 1000
      : checkCount(options.storeTimeoutMs, 'storeTimeoutMs', 1)
  checkStore(options.store)
  const count = counterFor(options.store, { windowMs, max, failOpen, timeoutMs })
  const limitText = String(max)
  const routeKey = routeKeys(options)

  function settle(entry: RateLimitEntry, req: Request, res: Response, now: number): undefined {
    const seconds = Math.max(0, Math.ceil((entry.reset - now) / 1000))
    const over = entry.count > max
    const open = !res.headersSent
    if (open) {
      // Lower-case names (header names are case-insensitive): Node then stores them without
      // lower-casing a copy (bench/rate-limit.bench.ts measures what a limit costs a request).
      res.setHeader('ratelimit-limit', limitText)
      res.setHeader('ratelimit-remaining', over ? '0' : String(max - entry.count))
      res.setHeader('ratelimit-reset', String(seconds))
    }
    if (!over) return undefined
    // Seconds until the window ends, at least 1: a client told 0 would retry at once.
    const retryAfter = Math.max(1, seconds)
    if (open) res.setHeader('retry-after', String(retryAfter))
    countRateLimitRejection(req)
    throw raise('RATE_LIMIT_EXCEEDED', message, { retryAfter })
  }

  function failed(err: unknown): undefined {
    if (!(err instanceof StoreFailure)) throw err
    reportStoreFailure(err)
    return undefined
  }

  return function rateLimit(req: Request, res: Response) {
    const key = keyGenerator(req)
    if (typeof key !== 'string')
      throw optionError(
        'SG_ERR_BAD_RETURN',
        'shapeguard: rateLimit.keyGenerator: must return a string',
      )
    const now = Date.now()
    const counted = count(routeKey(req, key), now)
    if (counted instanceof Promise) {
      return counted.then(
        (entry) => settle(entry, req, res, Date.now()),
        (err: unknown) => failed(err),
      )
    }
    return settle(counted, req, res, now)
  }
}
