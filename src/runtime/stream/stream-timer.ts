import type { Response } from 'express'
import type { ResolvedConfig, ResolvedTimeout } from '../core/config.js'
import { peekContext } from '../core/context.js'

// A stream's time limits (`timeout.idle`, `timeout.total`) on one unref'd timer. A send only
// notes its time: clearing and setting a timer per event would cost more than the event. When the
// timer fires before a limit has passed (an event came meanwhile), it is armed again for what is
// left.

/** What the timer needs of its stream. */
export interface TimedStream {
  /** `performance.now()` when the stream's head went. */
  readonly start: number
  /** A limit passed: `'idle'` or `'total'`. */
  expire(limit: 'idle' | 'total'): void
}

function fire(timer: StreamTimer): void {
  timer.check()
}

/** The idle and total limits of one open stream, in milliseconds (each undefined when unset). */
export class StreamTimer {
  private last: number
  private handle: NodeJS.Timeout | undefined

  constructor(
    private readonly stream: TimedStream,
    private readonly idle: number | undefined,
    private readonly total: number | undefined,
  ) {
    this.last = stream.start
    this.handle = undefined
    this.arm(performance.now())
  }

  /** An event went: the idle limit counts from now (heartbeats do not call it). */
  sent(): void {
    this.last = performance.now()
  }

  /** The stream ended: no limit is watched any more. */
  clear(): void {
    if (this.handle !== undefined) clearTimeout(this.handle)
    this.handle = undefined
  }

  check(): void {
    this.handle = undefined
    const now = performance.now()
    if (this.total !== undefined && now - this.stream.start >= this.total)
      this.stream.expire('total')
    else if (this.idle !== undefined && now - this.last >= this.idle) this.stream.expire('idle')
    else this.arm(now)
  }

  private arm(now: number): void {
    let due = Number.POSITIVE_INFINITY
    if (this.total !== undefined) due = this.stream.start + this.total
    if (this.idle !== undefined) due = Math.min(due, this.last + this.idle)
    this.handle = setTimeout(fire, Math.max(1, Math.ceil(due - now)), this)
    this.handle.unref()
  }
}

/** A route's time limits under the app a request came through (lifecycle/route-timeout.ts). */
export type LimitsFor = (config: ResolvedConfig) => ResolvedTimeout | undefined

/**
 * Watches the idle and total limits of a request's stream under its app, from now (its head
 * went); nothing when it has none.
 */
export function limitStream(
  stream: TimedStream & { limits: StreamTimer | undefined },
  res: Response,
  limitsFor: LimitsFor | undefined,
): void {
  const config = peekContext(res)?.config
  const limits = config === undefined ? undefined : limitsFor?.(config)
  if (limits?.idle !== undefined || limits?.total !== undefined)
    stream.limits = new StreamTimer(stream, limits.idle, limits.total)
}

// How long a stream ended by its limit may take to reach a client that stopped reading.
const endGraceMs = 5_000

/**
 * A stream ended by its time limit: its socket is destroyed if it has not closed within a grace
 * (a client that stopped reading would hold the socket and the final frame forever).
 */
export function closeSoon(res: Response): void {
  if (res.closed) return
  const timer = setTimeout(() => {
    if (!res.closed) res.destroy()
  }, endGraceMs)
  timer.unref()
  res.once('close', () => clearTimeout(timer))
}
