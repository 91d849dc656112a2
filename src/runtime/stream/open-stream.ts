import type { NextFunction, Response } from 'express'
import { raise } from '../core/app-error.js'
import { contextOf, peekContext, type StreamFigures } from '../core/context.js'
import { abortRequest } from '../core/request-signal.js'
import { StreamClosedError } from '../core/stream-closed.js'
import type { SpanLike } from '../telemetry/otel-api.js'
import { requestSpan } from '../telemetry/request-span.js'
import { traceStream } from '../telemetry/spans.js'
import { noop, rejected } from './rejected.js'
import { closeSoon, type StreamTimer } from './stream-timer.js'

const OPEN = 0
const ENDED = 1
const GONE = 2

// What a send that was written at once answers: one settled promise for all of them.
const written: Promise<void> = Promise.resolve()

// One pair of listeners for every stream (`this` is the response): no closure per stream.
function onDrain(this: Response): void {
  ;(peekContext(this)?.stream as OpenStream | undefined)?.drained()
}

function onClose(this: Response): void {
  ;(peekContext(this)?.stream as OpenStream | undefined)?.released()
}

function beat(stream: OpenStream): void {
  stream.ping()
}

function flushTick(stream: OpenStream): void {
  stream.flushQueued()
}

// Frames are gathered into one string and handed to the response once per tick, or as soon as
// they reach this many characters: one `res.write` per event costs Node's stream machinery (and
// chunked encoding's framing) far more than the event itself (bench/sse.bench.ts). Node corks a
// response's writes until the next tick anyway, so no event goes out later than it would have.
const gather = 16 * 1024

/**
 * A response being streamed: writes whole frames in order, waits for `drain` when the socket's
 * buffer is full (so a slow client holds a bounded amount in memory), keeps the figures the
 * request line records, and ends once: by `close()`, by the error middleware's final error frame,
 * or by the client going (pending and later sends then reject with `StreamClosedError`).
 */
export abstract class OpenStream implements StreamFigures {
  events: number
  bytes: number
  readonly start: number
  end: number | undefined
  clientGone: boolean
  /** The error the stream ended with (its final error frame went out): answered once. */
  failure: unknown
  readonly signal: AbortSignal
  protected readonly res: Response
  private readonly next: NextFunction | undefined
  private readonly span: SpanLike | undefined
  private state: number
  // The last send still in progress (an asynchronous schema, a wait for drain): later sends follow it.
  private tail: Promise<void> | undefined
  // While the socket's buffer is full: what sends settle with, and its two ends.
  private draining: Promise<void> | undefined
  private resume: (() => void) | undefined
  private abandon: ((err: unknown) => void) | undefined
  private timer: NodeJS.Timeout | undefined
  /** `timeout.idle` and `timeout.total`, watched from the head on (stream-timer.ts). */
  limits: StreamTimer | undefined
  private closing: Promise<void> | undefined
  private settle: (() => void) | undefined
  private isReleased: boolean
  // Frames written since the last flush, and whether a flush is due this tick.
  private queued: string
  private due: boolean
  /** Called once when the client goes (NDJSON stops pulling its iterable). */
  protected gone: (() => void) | undefined

  constructor(res: Response, signal: AbortSignal) {
    const context = contextOf(res)
    this.events = 0
    this.bytes = 0
    this.start = performance.now()
    this.end = undefined
    this.clientGone = false
    this.failure = undefined
    this.signal = signal
    this.res = res
    this.next = context.next
    this.span = requestSpan()
    this.state = OPEN
    this.tail = undefined
    this.draining = undefined
    this.resume = undefined
    this.abandon = undefined
    this.timer = undefined
    this.limits = undefined
    this.closing = undefined
    this.settle = undefined
    this.isReleased = false
    this.queued = ''
    this.due = false
    this.gone = undefined
    context.stream = this
    res.on('drain', onDrain)
    res.on('close', onClose)
  }

  /** The final frame holding an error body's JSON text. */
  protected abstract errorFrame(json: string): string

  get open(): boolean {
    return this.state === OPEN
  }

  /** Sends a `: ping` comment every `ms`, on one unref'd timer, while nothing waits for drain. */
  heartbeat(ms: number): void {
    this.timer = setInterval(beat, ms, this)
    this.timer.unref()
  }

  /**
   * A time limit passed: the stream ends with its HANDLER_TIMEOUT error event, through the error
   * middleware as a send's failure does, then the request's signal aborts (a TimeoutError).
   */
  expire(limit: 'idle' | 'total'): void {
    if (this.state !== OPEN) return
    void this.fail(raise('HANDLER_TIMEOUT'))
    if (this.state === OPEN) this.finish()
    closeSoon(this.res)
    const reason = new DOMException(`The stream passed its ${limit} time limit`, 'TimeoutError')
    abortRequest(this.res, reason)
  }

  /** Writes bytes that are not an event (`retry:`). */
  head(text: string): void {
    void this.write(text, false)
  }

  ping(): void {
    if (this.state !== OPEN || this.tail !== undefined || this.draining !== undefined) return
    void this.write(': ping\n\n', false)
  }

  /**
   * Queues `text` unless the stream has ended. Settles at once while the socket takes more;
   * while its buffer is full, once it has drained (the text waits in the queue until then).
   */
  protected write(text: string, event: boolean): Promise<void> {
    if (this.state !== OPEN) return rejected(new StreamClosedError())
    if (event) {
      this.events++
      this.limits?.sent()
    }
    this.queued = this.queued === '' ? text : this.queued + text
    if (this.draining !== undefined) return this.draining
    if (this.queued.length >= gather) return this.flush()
    if (!this.due) {
      this.due = true
      process.nextTick(flushTick, this)
    }
    return written
  }

  /** The tick's flush of what the sends of this tick queued. */
  flushQueued(): void {
    this.due = false
    if (this.state === OPEN && this.draining === undefined && this.queued !== '') void this.flush()
  }

  // Hands the queue to the response; when the socket's buffer is full, sends wait for drain.
  private flush(): Promise<void> {
    const text = this.queued
    this.queued = ''
    this.bytes += Buffer.byteLength(text)
    if (this.res.write(text)) return written
    this.draining = new Promise((resolve, reject) => {
      this.resume = resolve
      this.abandon = reject
    })
    // Nobody may await it (the tick's flush): a client that goes must not make it unhandled.
    this.draining.catch(noop)
    return this.draining
  }

  /** Open, with no send in progress: the next one runs at once (the common case). */
  protected get idle(): boolean {
    return this.state === OPEN && this.tail === undefined
  }

  /** What a send that ran at once answers: later sends follow it while it is in progress. */
  protected settled(done: Promise<void>): Promise<void> {
    if (done === written) return done
    this.tail = done
    const untrack = () => {
      if (this.tail === done) this.tail = undefined
    }
    done.then(untrack, untrack)
    return done
  }

  /** Runs `send` after the send in progress (or rejects once the stream has ended). */
  protected later(send: () => Promise<void>): Promise<void> {
    if (this.state !== OPEN) return rejected(new StreamClosedError())
    return this.settled(this.tail === undefined ? send() : this.tail.then(send, send))
  }

  /**
   * A send whose data failed its schema: the error goes to the error middleware, which ends the
   * stream with its final error frame and logs it once; the send rejects with it.
   */
  protected fail(err: unknown): Promise<never> {
    if (this.state === OPEN) {
      try {
        if (this.next === undefined) this.finish()
        else this.next(err)
      } catch {
        this.finish()
      }
    }
    return rejected(err)
  }

  /** The error middleware's answer after the first byte: the final error frame, then the end. */
  endWithError(err: unknown, body: unknown): void {
    if (this.state !== OPEN) return
    this.failure = err
    this.events++
    this.queued += this.errorFrame(JSON.stringify(body))
    this.finish()
  }

  /** Ends the stream after the sends in progress; settles once the response has closed. */
  close(): Promise<void> {
    if (this.closing !== undefined) return this.closing
    this.closing = this.isReleased
      ? written
      : new Promise((resolve) => {
          this.settle = resolve
        })
    if (this.state === OPEN) {
      const finish = () => this.finish()
      if (this.tail === undefined) finish()
      else this.tail.then(finish, finish)
    }
    return this.closing
  }

  private finish(): void {
    if (this.state !== OPEN) return
    this.state = ENDED
    const text = this.queued
    this.queued = ''
    this.bytes += Buffer.byteLength(text)
    this.stop()
    this.res.end(text)
    // What waited for drain was handed to the socket: those sends succeeded.
    const resume = this.resume
    this.resume = this.abandon = this.draining = undefined
    resume?.()
  }

  private stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer)
    this.timer = undefined
    this.limits?.clear()
    this.limits = undefined
    this.end = performance.now()
    traceStream(this.span, this.events, this.bytes)
  }

  drained(): void {
    const resume = this.resume
    this.resume = this.abandon = this.draining = undefined
    // What was queued meanwhile goes now, so the sends it settles wait for the next drain.
    if (this.state === OPEN && this.queued !== '') void this.flush()
    resume?.()
  }

  /** The response closed: after its end, or because the client went first. */
  released(): void {
    if (this.isReleased) return
    this.isReleased = true
    this.res.off('drain', onDrain)
    this.res.off('close', onClose)
    this.queued = ''
    if (this.state === OPEN) {
      this.state = GONE
      this.clientGone = true
      this.stop()
      this.gone?.()
    }
    const abandon = this.abandon
    this.resume = this.abandon = this.draining = undefined
    abandon?.(new StreamClosedError())
    this.settle?.()
  }
}
