import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MEMORY_STORE_MAX_KEYS, MemoryStore } from '../../../src/runtime/rate-limit/memory-store.js'

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 })
})
afterEach(() => {
  vi.useRealTimers()
})

describe('MemoryStore: a fixed window per key', () => {
  it('opens a window, counts to max, then leaves the entry unchanged', () => {
    const store = new MemoryStore()
    expect(store.increment('k', 1000, 2)).toEqual({ count: 1, reset: 1_001_000 })
    expect(store.increment('k', 1000, 2)).toEqual({ count: 2, reset: 1_001_000 })
    // Over the limit: the answer is one past max, the stored count stays at max.
    expect(store.increment('k', 1000, 2)).toEqual({ count: 3, reset: 1_001_000 })
    expect(store.increment('k', 1000, 2)).toEqual({ count: 3, reset: 1_001_000 })
  })

  it('counts every request without a max, in the same window', () => {
    const store = new MemoryStore()
    for (let count = 1; count <= 5; count++)
      expect(store.increment('k', 1000)).toEqual({ count, reset: 1_001_000 })
    vi.setSystemTime(1_001_000)
    expect(store.increment('k', 1000)).toEqual({ count: 1, reset: 1_002_000 })
  })

  it('opens a new window at now >= reset', () => {
    const store = new MemoryStore()
    store.increment('k', 1000, 1)
    store.increment('k', 1000, 1)
    vi.setSystemTime(1_000_999)
    expect(store.increment('k', 1000, 1).count).toBe(2)
    vi.setSystemTime(1_001_000)
    expect(store.increment('k', 1000, 1)).toEqual({ count: 1, reset: 1_002_000 })
  })

  it('keeps keys apart', () => {
    const store = new MemoryStore()
    store.increment('a', 1000, 1)
    expect(store.increment('b', 1000, 1).count).toBe(1)
  })

  it('drops ended windows on its timer, and stops the timer once empty', () => {
    const store = new MemoryStore()
    store.increment('a', 5000, 1)
    vi.advanceTimersByTime(2000)
    store.increment('b', 5000, 1)
    expect(vi.getTimerCount()).toBe(1)
    vi.advanceTimersByTime(5000)
    expect(store.size).toBe(1)
    vi.advanceTimersByTime(5000)
    expect(store.size).toBe(0)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('stays bounded under a flood of 100,000 distinct clients', () => {
    const store = new MemoryStore(10_000)
    for (let i = 0; i < 100_000; i++)
      store.increment(`/login:198.51.${i >> 8}.${i & 255}`, 60_000, 5)
    expect(store.size).toBe(10_000)
    // The windows that end soonest made room: the newest clients are still counted.
    expect(store.increment('/login:198.51.255.255', 60_000, 5).count).toBe(1)
    expect(store.increment(`/login:198.51.${99_999 >> 8}.${99_999 & 255}`, 60_000, 5).count).toBe(2)
    vi.advanceTimersByTime(120_000)
    expect(store.size).toBe(0)
  })

  it(`holds up to ${MEMORY_STORE_MAX_KEYS} keys by default`, () => {
    const store = new MemoryStore()
    for (let i = 0; i < MEMORY_STORE_MAX_KEYS + 500; i++) store.increment(String(i), 60_000, 5)
    expect(store.size).toBe(MEMORY_STORE_MAX_KEYS)
  })
})
