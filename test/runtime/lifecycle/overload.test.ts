import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterEach, describe, expect, it } from 'vitest'
import { shapeguard } from '../../../src/index.js'
import type { ResolvedOverload } from '../../../src/runtime/core/config.js'
import {
  type LoadWatcher,
  loadSamplerRunning,
  stopLoadSampler,
  watchLoad,
} from '../../../src/runtime/lifecycle/load-sampler.js'
import { OverloadWatch, watchOverload } from '../../../src/runtime/lifecycle/overload.js'
import { requestLogger } from '../../../src/runtime/logging/request-logger.js'
import { captureLogger } from '../../support/e2e.js'

afterEach(() => stopLoadSampler())

function limits(given: Partial<ResolvedOverload>): ResolvedOverload {
  return {
    maxEventLoopDelayMs: undefined,
    maxHeapUsedBytes: undefined,
    retryAfter: 10,
    sampleIntervalMs: 100,
    ...given,
  }
}

function watch(given: Partial<ResolvedOverload>) {
  const log = captureLogger()
  const appLog = requestLogger({ instance: log }, false).appLog
  return { watch: new OverloadWatch(limits(given), appLog), log, appLog }
}

function block(ms: number): void {
  const end = performance.now() + ms
  while (performance.now() < end) {
    // the event loop held
  }
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('OverloadWatch', () => {
  it('sheds from the first sample past a limit, and stops after 10 calm samples', () => {
    const { watch: w, log } = watch({ maxEventLoopDelayMs: 50 })
    w.sample(10, 0, 0)
    expect(w.shedding).toBe(false)
    w.sample(51, 0, 100)
    expect(w.shedding).toBe(true)
    w.refused = 3
    // calm, then past the limit again: the calm count starts over
    for (let t = 200; t <= 900; t += 100) w.sample(0, 0, t)
    w.sample(80, 0, 1000)
    for (let t = 1100; t < 2100; t += 100) w.sample(0, 0, t)
    expect(w.shedding).toBe(true)
    w.sample(0, 0, 2100)
    expect(w.shedding).toBe(false)
    expect(log.records.map((r) => [r.level, r.message, r.meta])).toEqual([
      [
        'warn',
        'shapeguard overload: past its limits, answering 503 OVERLOADED until it recovers',
        {
          eventLoopDelayMs: 51,
          maxEventLoopDelayMs: 50,
          heapUsedBytes: 0,
          maxHeapUsedBytes: undefined,
        },
      ],
      [
        'warn',
        'shapeguard overload: back within its limits, serving requests again',
        { sheddingMs: 2000, refused: 3 },
      ],
    ])
  })

  it('compares the heap with its own limit only; a value at the limit is within it', () => {
    const { watch: w } = watch({ maxHeapUsedBytes: 1000 })
    w.sample(60_000, 1000, 0)
    expect(w.shedding).toBe(false)
    w.sample(0, 1001, 100)
    expect(w.shedding).toBe(true)
  })

  it('calms over 10 of its own intervals', () => {
    const { watch: w } = watch({ maxHeapUsedBytes: 1, sampleIntervalMs: 1000 })
    w.sample(0, 2, 0)
    for (let t = 10; t < 10_010; t += 10) w.sample(0, 0, t)
    expect(w.shedding).toBe(true)
    w.sample(0, 0, 10_010)
    expect(w.shedding).toBe(false)
  })

  it('refuses nothing once the sampler stops', () => {
    const { watch: w, appLog } = watch({ maxHeapUsedBytes: 1 })
    const live = watchOverload(limits({ maxHeapUsedBytes: 1 }), appLog)
    expect(live.shedding).toBe(true)
    stopLoadSampler()
    expect(live.shedding).toBe(false)
    expect(loadSamplerRunning()).toBe(false)
    w.reset()
    expect(w.shedding).toBe(false)
  })
})

describe('the load sampler', () => {
  it('gives a new watcher a first sample at once, with the heap used', () => {
    const seen: number[] = []
    const watcher: LoadWatcher = {
      intervalMs: 100,
      sample: (delay, heap) => seen.push(delay, heap),
      reset: () => {},
    }
    watchLoad(watcher)
    expect(seen).toEqual([0, expect.any(Number)])
    expect(seen[1]).toBeGreaterThan(1_000_000)
    expect(loadSamplerRunning()).toBe(true)
  })

  it('sees a blocked event loop on its first tick after the block', async () => {
    const delays: number[] = []
    const watcher: LoadWatcher = {
      intervalMs: 20,
      sample: (delay) => delays.push(delay),
      reset: () => {},
    }
    watchLoad(watcher)
    await tick(50)
    const before = delays.length
    block(150)
    // the very next sample, as the loop turns
    for (let i = 0; i < 50 && delays.length === before; i++) await tick(1)
    expect(delays[before]).toBeGreaterThanOrEqual(100)
  })

  it('samples as often as its most demanding watcher asks', async () => {
    const counts = { slow: 0, fast: 0 }
    const make = (name: 'slow' | 'fast', intervalMs: number): LoadWatcher => ({
      intervalMs,
      sample: () => {
        counts[name]++
      },
      reset: () => {},
    })
    const slow = make('slow', 1000)
    const fast = make('fast', 10)
    watchLoad(slow)
    watchLoad(fast)
    await tick(120)
    expect(counts.fast).toBeGreaterThan(4)
    expect(counts.slow).toBe(counts.fast)
  })

  it('stops once every watcher is gone (an app dropped takes its watcher with it)', async () => {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    ;(() => {
      watchLoad({ intervalMs: 10, sample: () => {}, reset: () => {} })
    })()
    expect(loadSamplerRunning()).toBe(true)
    for (let i = 0; i < 20 && loadSamplerRunning(); i++) {
      gc()
      await tick(20)
    }
    expect(loadSamplerRunning()).toBe(false)
  })

  it('never keeps the process alive', () => {
    const script = `
      import express from 'express'
      import { shapeguard } from ${JSON.stringify(resolve(import.meta.dirname, '../../../src/index.ts'))}
      express().use(shapeguard({ debug: false, overload: { maxEventLoopDelayMs: 100 } }))
    `
    const started = Date.now()
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', script],
      { timeout: 20_000, encoding: 'utf8' },
    )
    expect(child.stderr).toBe('')
    expect(child.signal).toBeNull()
    expect(child.status).toBe(0)
    expect(Date.now() - started).toBeLessThan(20_000)
  }, 30_000)
})

describe('shapeguard({ overload }) at mount', () => {
  it.each([
    [{}, 'SG_ERR_MISSING_OPTION', 'overload: needs maxEventLoopDelayMs or maxHeapUsedBytes'],
    [{ maxEventLoopDelayMs: 0 }, 'SG_ERR_INVALID_OPTION', 'overload.maxEventLoopDelayMs: must be'],
    [
      { maxEventLoopDelayMs: 2.5 },
      'SG_ERR_INVALID_OPTION',
      'overload.maxEventLoopDelayMs: must be',
    ],
    [{ maxEventLoopDelayMs: '100' }, 'SG_ERR_INVALID_OPTION', 'overload.maxEventLoopDelayMs'],
    [{ maxHeapUsedBytes: -1 }, 'SG_ERR_INVALID_OPTION', 'overload.maxHeapUsedBytes: must be'],
    [{ maxHeapUsedBytes: 1, retryAfter: -1 }, 'SG_ERR_INVALID_OPTION', 'overload.retryAfter'],
    [{ maxHeapUsedBytes: 1, retryAfter: 1e9 }, 'SG_ERR_INVALID_OPTION', 'overload.retryAfter'],
    [{ maxHeapUsedBytes: 1, sampleIntervalMs: 0 }, 'SG_ERR_INVALID_OPTION', 'sampleIntervalMs'],
    [{ maxHeapUsedBytes: 1, maxDelay: 5 }, 'SG_ERR_UNKNOWN_OPTION', 'overload: maxDelay is not'],
    [null, 'SG_ERR_INVALID_OPTION', 'overload: must be an object'],
    [200, 'SG_ERR_INVALID_OPTION', 'overload: must be an object'],
  ])('throws at mount for %j, naming the option', (overload, code, message) => {
    expect(() => shapeguard({ overload: overload as never })).toThrow(
      expect.objectContaining({ code, message: expect.stringContaining(message) }),
    )
    expect(loadSamplerRunning()).toBe(false)
  })

  it('starts no sampler without overload', () => {
    shapeguard({ debug: false })
    expect(loadSamplerRunning()).toBe(false)
  })
})
