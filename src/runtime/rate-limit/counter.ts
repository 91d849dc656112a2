import type { Store as ExpressRateLimitStore } from 'express-rate-limit'
import { optionError } from '../../shared/error-codes.js'
import { raise } from '../core/app-error.js'
import { MemoryStore } from './memory-store.js'
import { StoreFailure } from './store-failures.js'
import type {
  RateLimitEntry,
  RateLimitGetSetStore,
  RateLimitIncrementStore,
  RateLimitStore,
} from './types.js'

/**
 * Counts a request for a key at `now`: the window after it, with `count > max` when it is over the
 * limit. Only the memory store counts at the `now` it is given; other stores keep their own time.
 */
export type Counter = (key: string, now: number) => RateLimitEntry | Promise<RateLimitEntry>

/** What a route's counter needs to know. */
export interface CounterOptions {
  readonly windowMs: number
  readonly max: number
  readonly failOpen: boolean
  readonly timeoutMs: number
}

function isErlStore(store: object): store is ExpressRateLimitStore {
  const s = store as Partial<ExpressRateLimitStore>
  return (
    typeof s.increment === 'function' &&
    typeof s.decrement === 'function' &&
    typeof s.resetKey === 'function'
  )
}

function isIncrementStore(store: object): store is RateLimitIncrementStore {
  return typeof (store as Partial<RateLimitIncrementStore>).increment === 'function'
}

function isGetSetStore(store: object): store is RateLimitGetSetStore {
  const s = store as Partial<RateLimitGetSetStore>
  return typeof s.get === 'function' && typeof s.set === 'function'
}

// An express-rate-limit store belongs to one limiter: init() gives it that limiter's window.
const claimed = new WeakSet<ExpressRateLimitStore>()

/** Checks a `store` option when the route is defined. */
export function checkStore(store: unknown): void {
  if (store === undefined) return
  if (
    typeof store !== 'object' ||
    store === null ||
    !(isErlStore(store) || isIncrementStore(store) || isGetSetStore(store))
  ) {
    throw optionError(
      'SG_ERR_INSTANCE_INCOMPATIBLE',
      'shapeguard: rateLimit.store: must have get(key) and set(key, entry), or increment(key, windowMs, max), or be an express-rate-limit Store',
    )
  }
  if (isErlStore(store)) {
    if (claimed.has(store)) {
      throw optionError(
        'SG_ERR_STORE_SHARED',
        'shapeguard: rateLimit.store: this express-rate-limit store is already used by another route, create one per route (stores of ours, such as redisStore(), may be shared)',
      )
    }
    claimed.add(store)
  }
}

/**
 * The route's counter over its store. The memory store counts synchronously. Every other store's
 * call is bounded by `timeoutMs`; one that throws, rejects or times out rejects with a
 * StoreFailure (`failOpen`: the request passes) or a 503 RATE_LIMIT_UNAVAILABLE.
 */
export function counterFor(store: RateLimitStore | undefined, options: CounterOptions): Counter {
  const { windowMs, max } = options
  if (store === undefined) {
    const memory = new MemoryStore()
    return (key, now) => memory.increment(key, windowMs, max, now)
  }
  if (isErlStore(store)) return erlCounter(store, options)
  if (isIncrementStore(store)) {
    return (key) => bounded(() => store.increment(key, windowMs, max), options).then(checked)
  }
  return getSetCounter(store, options)
}

function checked(entry: unknown): RateLimitEntry {
  const e = entry as Partial<RateLimitEntry> | null
  if (
    typeof e !== 'object' ||
    e === null ||
    !Number.isSafeInteger(e.count) ||
    (e.count as number) < 1 ||
    !Number.isFinite(e.reset)
  ) {
    throw new StoreFailure('answered no {count, reset}')
  }
  return e as RateLimitEntry
}

// An express-rate-limit Store, as express-rate-limit itself drives it: init() once with the
// limiter's options, then increment(key) → { totalHits, resetTime }.
function erlCounter(store: ExpressRateLimitStore, options: CounterOptions): Counter {
  const init = Promise.resolve()
    .then(() => store.init?.({ windowMs: options.windowMs, limit: options.max } as never))
    .catch(() => undefined)
  return (key) =>
    bounded(async () => {
      await init
      const { totalHits, resetTime } = await store.increment(key)
      const reset = resetTime instanceof Date ? resetTime.getTime() : Date.now() + options.windowMs
      return checked({ count: totalHits, reset })
    }, options)
}

// The fixed window (a key's first request opens it, `windowMs` long; its count starts again once
// it has ended) over get/set. Calls for one key are chained, so within a process no two
// requests read the same count; each link is bounded by the timeout, so a store that hangs once
// does not hold the key's later requests, and the chain is dropped once it has drained.
function getSetCounter(store: RateLimitGetSetStore, options: CounterOptions): Counter {
  const queues = new Map<string, Promise<unknown>>()
  const step = async (key: string): Promise<RateLimitEntry> => {
    const stored = await store.get(key)
    const now = Date.now()
    const entry = stored === null || stored === undefined ? undefined : checked(stored)
    if (entry === undefined || now >= entry.reset) {
      const opened = { count: 1, reset: now + options.windowMs }
      await store.set(key, opened)
      return opened
    }
    if (entry.count >= options.max) return { count: entry.count + 1, reset: entry.reset }
    const counted = { count: entry.count + 1, reset: entry.reset }
    await store.set(key, counted)
    return counted
  }
  return (key) => {
    const run = () => bounded(() => step(key), options)
    const mine = (queues.get(key) ?? Promise.resolve()).then(run, run)
    const tail = mine.then(
      () => undefined,
      () => undefined,
    )
    queues.set(key, tail)
    void tail.then(() => {
      if (queues.get(key) === tail) queues.delete(key)
    })
    return mine
  }
}

// A store call that throws, rejects or outlives `timeoutMs` is a failure.
async function bounded<T>(call: () => T | Promise<T>, options: CounterOptions): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StoreFailure('timed out')), options.timeoutMs)
      timer.unref?.()
    })
    return await Promise.race([Promise.resolve().then(call), timeout])
  } catch (err) {
    if (!options.failOpen) throw raise('RATE_LIMIT_UNAVAILABLE', undefined, null, { cause: err })
    throw err instanceof StoreFailure ? err : new StoreFailure('failed', { cause: err })
  } finally {
    clearTimeout(timer)
  }
}
