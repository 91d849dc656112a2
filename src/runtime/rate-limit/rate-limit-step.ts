import type { Request, Response } from 'express'
import { rateLimit } from 'express-rate-limit'
import { checkBoolean, checkFunction, checkString } from '../config/check-option.js'
import { raise } from '../errors/app-error.js'
import type { Step } from '../pipeline/steps.js'
import { defaultKey, routeKey } from './client-key.js'
import { checkStore, routeStore } from './route-store.js'
import { erlLogger } from './store-failures.js'
import type { RateLimitOptions } from './types.js'

const known = new Set([
  'windowMs',
  'max',
  'message',
  'store',
  'keyGenerator',
  'failOpen',
  'storeTimeoutMs',
])

function checkCount(value: unknown, name: string, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new TypeError(`shapeguard: rateLimit.${name} must be an integer of at least ${min}`)
  }
  return value
}

/** The rate-limit step of a route (SPEC's step 3): checked when the route is defined. */
export function rateLimitStep(options: RateLimitOptions): Step {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('shapeguard: rateLimit must be an object: { windowMs, max, … }')
  }
  for (const key of Object.keys(options)) {
    if (!known.has(key)) {
      throw new TypeError(
        `shapeguard: rateLimit.${key} is not an option (windowMs, max, message, store, keyGenerator, failOpen, storeTimeoutMs)`,
      )
    }
  }
  const windowMs = checkCount(options.windowMs, 'windowMs', 1)
  const max = checkCount(options.max, 'max', 0)
  const message = checkString(options.message, 'rateLimit.message')
  const keyGenerator = checkFunction(options.keyGenerator, 'rateLimit.keyGenerator')
  const failOpen = checkBoolean(options.failOpen, 'rateLimit.failOpen') ?? true
  const timeoutMs =
    options.storeTimeoutMs === undefined
      ? 1000
      : checkCount(options.storeTimeoutMs, 'storeTimeoutMs', 1)
  checkStore(options.store)

  const limiter = rateLimit({
    windowMs,
    limit: max,
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    store: routeStore(options.store, { windowMs, max, failOpen, timeoutMs }),
    passOnStoreError: failOpen,
    logger: erlLogger,
    keyGenerator: (req) => {
      const key = keyGenerator === undefined ? defaultKey(req) : keyGenerator(req)
      if (typeof key !== 'string')
        throw new TypeError('rateLimit.keyGenerator must return a string')
      return routeKey(req, key)
    },
    handler: (req, res, next) => next(exceeded(req, res, message)),
  })
  return function limit(req, res) {
    return new Promise<void>((resolve, reject) => {
      void limiter(req, res, (err?: unknown) => (err === undefined ? resolve() : reject(err)))
    })
  }
}

// The 429: its Retry-After (seconds until the window ends, at least 1) is also details.retryAfter.
function exceeded(req: Request, res: Response, message: string | undefined) {
  const reset = (req as { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime
  const seconds = reset === undefined ? 1 : Math.ceil((reset.getTime() - Date.now()) / 1000)
  const retryAfter = Math.max(1, seconds)
  if (!res.headersSent) res.setHeader('Retry-After', String(retryAfter))
  return raise('RATE_LIMIT_EXCEEDED', message, { retryAfter })
}
