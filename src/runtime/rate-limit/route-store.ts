import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit'
import { raise } from '../errors/app-error.js'
import { MemoryStore } from './memory-store.js'
import type {
  RateLimitEntry,
  RateLimitGetSetStore,
  RateLimitIncrementStore,
  RateLimitStore,
} from './types.js'

/** What a route's limiter needs to know to count against a store. */
export interface RouteStoreOptions {
  readonly windowMs: number
  readonly max: number
  readonly failOpen: boolean
  readonly timeoutMs: number
}

/** A store's failure, let through by express-rate-limit (`passOnStoreError`) and logged by us. */
export class StoreFailure extends Error {
  override readonly name = 'StoreFailure'
}

export function isErlStore(store: object): store is Store {
  const s = store as Partial<Store>
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
const claimed = new WeakSet<Store>()

/** Checks a `store` option when the route is defined. */
export function checkStore(store: unknown): void {
  if (store === undefined) return
  if (
    typeof store !== 'object' ||
    store === null ||
    !(isErlStore(store) || isIncrementStore(store) || isGetSetStore(store))
  ) {
    throw new TypeError(
      'shapeguard: rateLimit.store must have get(key) and set(key, entry), or increment(key, windowMs, max), or be an express-rate-limit Store',
    )
  }
  if (isErlStore(store)) {
    if (claimed.has(store)) {
      throw new TypeError(
        'shapeguard: rateLimit.store: this express-rate-limit store is already used by another route; create one per route (stores of ours, such as redisStore(), may be shared)',
      )
    }
    claimed.add(store)
  }
}

/**
 * The route's store as express-rate-limit sees it. Our stores run SPEC's window (an entry at its
 * limit is left unchanged); a remote store's call is bounded by `timeoutMs`. A failing store
 * throws a StoreFailure when the request may pass (`failOpen`), else a 503 RATE_LIMIT_UNAVAILABLE.
 */
export function routeStore(store: RateLimitStore | undefined, options: RouteStoreOptions): Store {
  if (store === undefined) {
    const memory = new MemoryStore()
    return {
      localKeys: true,
      increment: (key) => info(memory.increment(key, options.windowMs, options.max)),
      decrement: () => undefined,
      resetKey: () => undefined,
    }
  }
  if (isErlStore(store)) return wrapErlStore(store, options)
  const count = isIncrementStore(store)
    ? (key: string) => bounded(() => store.increment(key, options.windowMs, options.max), options)
    : getSetIncrement(store, options)
  return {
    localKeys: false,
    increment: async (key) => info(await count(key)),
    decrement: () => undefined,
    resetKey: () => undefined,
  }
}

function info(entry: RateLimitEntry): ClientRateLimitInfo {
  if (!isEntry(entry)) throw new TypeError('rate-limit store returned no {count, reset}')
  return { totalHits: entry.count, resetTime: new Date(entry.reset) }
}

function wrapErlStore(store: Store, options: RouteStoreOptions): Store {
  return {
    localKeys: store.localKeys ?? false,
    init: (erlOptions: Options) => store.init?.(erlOptions),
    increment: (key) => bounded(() => store.increment(key), options),
    decrement: (key) => bounded(() => store.decrement(key), options),
    resetKey: (key) => store.resetKey(key),
  }
}

function isEntry(entry: unknown): entry is RateLimitEntry {
  const e = entry as Partial<RateLimitEntry> | null
  return (
    typeof e === 'object' &&
    e !== null &&
    Number.isSafeInteger(e.count) &&
    (e.count as number) > 0 &&
    Number.isFinite(e.reset)
  )
}

// SPEC's window over get/set. Calls for one key are chained, so within a process no two
// requests read the same count; each link is bounded by the timeout, so a store that hangs once
// does not hold the key's later requests, and the chain is dropped once it has drained.
function getSetIncrement(
  store: RateLimitGetSetStore,
  options: RouteStoreOptions,
): (key: string) => Promise<RateLimitEntry> {
  const queues = new Map<string, Promise<unknown>>()
  const step = async (key: string): Promise<RateLimitEntry> => {
    const entry = await store.get(key)
    const now = Date.now()
    if (entry === null || entry === undefined || !isEntry(entry) || now >= entry.reset) {
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
    const before = queues.get(key) ?? Promise.resolve()
    const run = () => bounded(() => step(key), options)
    const mine = before.then(run, run)
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
async function bounded<T>(call: () => T | Promise<T>, options: RouteStoreOptions): Promise<T> {
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
