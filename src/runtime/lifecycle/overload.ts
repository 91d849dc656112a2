import type { Response } from 'express'
import { errorCodes } from '../../shared/error-codes.js'
import type { ResolvedOverload } from '../core/config.js'
import type { AppLog } from '../logging/app-log.js'
import { writeLine } from '../logging/logger.js'
import { type LoadWatcher, watchLoad } from './load-sampler.js'

// Shedding starts on the first sample past a limit, and stops only once the samples have stayed
// within the limits for CALM_SAMPLES intervals (1 s by default): a process hovering at its limit,
// or blocked in bursts with short quiet gaps between them, would otherwise flip every sample. A
// refused client waits `retryAfter` (10 s by default) anyway, so the extra second costs little.
// No lower threshold to fall below: a heap that a garbage collection never brings 10 % under its
// limit would then be refused for good.
const CALM_SAMPLES = 10

/** One shapeguard() instance's load shedding: its limits against the shared samples. */
export class OverloadWatch implements LoadWatcher {
  /** Read on every request: whether requests are refused now. */
  shedding = false
  /** Requests refused since shedding started, for the line that says it stopped. */
  refused = 0
  readonly intervalMs: number
  readonly retryAfter: string
  readonly #limits: ResolvedOverload
  readonly #log: AppLog
  #since = 0
  #calmSince = -1

  constructor(limits: ResolvedOverload, log: AppLog) {
    this.#limits = limits
    this.#log = log
    this.intervalMs = limits.sampleIntervalMs
    this.retryAfter = String(limits.retryAfter)
  }

  sample(delayMs: number, heapUsed: number, now: number): void {
    const { maxEventLoopDelayMs: maxDelay, maxHeapUsedBytes: maxHeap } = this.#limits
    const over =
      (maxDelay !== undefined && delayMs > maxDelay) ||
      (maxHeap !== undefined && heapUsed > maxHeap)
    if (over) {
      this.#calmSince = -1
      if (!this.shedding) this.#start(delayMs, heapUsed, now)
      return
    }
    if (!this.shedding) return
    if (this.#calmSince < 0) this.#calmSince = now
    else if (now - this.#calmSince >= CALM_SAMPLES * this.intervalMs) this.#stop(now)
  }

  reset(): void {
    this.shedding = false
    this.#calmSince = -1
  }

  #start(delayMs: number, heapUsed: number, now: number): void {
    this.shedding = true
    this.refused = 0
    this.#since = now
    const { maxEventLoopDelayMs, maxHeapUsedBytes } = this.#limits
    writeLine(
      this.#log,
      undefined,
      'warn',
      {
        eventLoopDelayMs: Math.round(delayMs),
        maxEventLoopDelayMs,
        heapUsedBytes: heapUsed,
        maxHeapUsedBytes,
      },
      'shapeguard overload: past its limits, answering 503 OVERLOADED until it recovers',
    )
  }

  #stop(now: number): void {
    this.shedding = false
    this.#calmSince = -1
    writeLine(
      this.#log,
      undefined,
      'warn',
      { sheddingMs: Math.round(now - this.#since), refused: this.refused },
      'shapeguard overload: back within its limits, serving requests again',
    )
  }
}

/** Starts watching the process's load for one shapeguard() instance (at mount). */
export function watchOverload(limits: ResolvedOverload, log: AppLog): OverloadWatch {
  const watch = new OverloadWatch(limits, log)
  watchLoad(watch)
  return watch
}

const { message } = errorCodes.OVERLOADED

/**
 * Answers a request 503 OVERLOADED with `Retry-After`, in the app's error format, as `res.fail`
 * does (its log line records the code; no `onError`: nothing failed, and a hook run for every
 * refused request would add the very work shedding is there to avoid).
 */
export function refuseOverloaded(res: Response, watch: OverloadWatch): void {
  watch.refused++
  res.setHeader('retry-after', watch.retryAfter)
  res.fail({ status: 503, code: 'OVERLOADED', message })
}
