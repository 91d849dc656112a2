import type { RateLimitEntry, RateLimitIncrementStore } from './types.js'

/** How many keys one route's memory store holds at most. */
export const MEMORY_STORE_MAX_KEYS = 100_000

/**
 * The default store: one per route, in this process. Counting is synchronous, so concurrent
 * requests can never both take the last place. Windows are kept in a Map in the order they
 * opened (a reopened window moves to the end), so the first entry always ends first: a sweep on an
 * unref'd timer drops the ended ones from the front, and at `maxKeys` the window that ends soonest
 * makes room, so a flood of distinct clients cannot grow memory without bound.
 */
export class MemoryStore implements RateLimitIncrementStore {
  readonly #windows = new Map<string, RateLimitEntry>()
  readonly #maxKeys: number
  #timer: ReturnType<typeof setTimeout> | undefined

  constructor(maxKeys = MEMORY_STORE_MAX_KEYS) {
    this.#maxKeys = maxKeys
  }

  /** How many keys it holds now. */
  get size(): number {
    return this.#windows.size
  }

  increment(key: string, windowMs: number, max?: number, now = Date.now()): RateLimitEntry {
    const entry = this.#windows.get(key)
    if (entry !== undefined && now < entry.reset) {
      if (max === undefined || entry.count < max) entry.count++
      else return { count: entry.count + 1, reset: entry.reset }
      return entry
    }
    if (entry !== undefined) this.#windows.delete(key)
    else if (this.#windows.size >= this.#maxKeys) this.#makeRoom(now)
    const opened = { count: 1, reset: now + windowMs }
    this.#windows.set(key, opened)
    if (this.#timer === undefined) this.#schedule(windowMs)
    return opened
  }

  /** Drops every window that has ended by `now`; returns how many are left. */
  sweep(now = Date.now()): number {
    for (const [key, entry] of this.#windows) {
      if (entry.reset > now) break
      this.#windows.delete(key)
    }
    return this.#windows.size
  }

  #makeRoom(now: number): void {
    if (this.sweep(now) < this.#maxKeys) return
    const oldest = this.#windows.keys().next()
    if (oldest.done !== true) this.#windows.delete(oldest.value)
  }

  // One timer while there are windows; none once the store is empty, so a store nobody uses any
  // more is collected with its route.
  #schedule(windowMs: number): void {
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined
        if (this.sweep() > 0) this.#schedule(windowMs)
      },
      Math.min(Math.max(windowMs, 1000), 2 ** 31 - 1),
    )
    this.#timer.unref?.()
  }
}
