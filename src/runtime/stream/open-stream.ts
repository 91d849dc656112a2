import type { NextFunction, Response } from 'express'
import { contextOf, peekContext, type StreamFigures } from '../core/context.js'
import type { SpanLike } from '../telemetry/otel-api.js'
import { requestSpan } from '../telemetry/request-span.js'
import { traceStream } from '../telemetry/spans.js'
import { StreamClosedError } from './stream-closed.js'

const OPEN = 0
const ENDED = 1
const GONE = 2

// What a send that was written at once answers: one settled promise for all of them.
const written: Promise<void> = Promise.resolve()

function noop(): void {}

/** A rejected promise nobody has to await: a fire-and-forget `send` must not crash the process. */
export function rejected(err: unknown): Promise<never> {
  const promise = Promise.reject(err)
  promise.catch(noop)
  return promise
}

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
  private resume: (() => void) | undefined
  private abandon: ((err: unknown) => void) | undefined
  private timer: NodeJS.Timeout | undefined
  private closing: Promise<void> | undefined
  private settle: (() => void) | undefined
  private isReleased: boolean
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
    this.resume = undefined
    this.abandon = undefined
    this.timer = undefined
    this.closing = undefined
    this.settle = undefined
    this.isReleased = false
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

  /** Writes bytes that are not an event (`retry:`). */
  head(text: string): void {
    void this.write(text, false)
  }

  ping(): void {
    if (this.state !== OPEN || this.tail !== undefined) return
    this.bytes += 8
    this.res.write(': ping\n\n')
  }

  /** Writes `text` unless the stream has ended; settles once written (after drain if need be). */
  protected write(text: string, event: boolean): Promise<void> {
    if (this.state !== OPEN) return rejected(new StreamClosedError())
    if (event) this.events++
    this.bytes += Buffer.byteLength(text)
    if (this.res.write(text)) return written
    return new Promise((resolve, reject) => {
      this.resume = resolve
      this.abandon = reject
    })
  }

  /** Runs `send` now when no send is in progress (the common case), else after the last one. */
  protected order(send: () => Promise<void>): Promise<void> {
    if (this.state !== OPEN) return rejected(new StreamClosedError())
    const done = this.tail === undefined ? send() : this.tail.then(send, send)
    if (done === written) return done
    this.tail = done
    const untrack = () => {
      if (this.tail === done) this.tail = undefined
    }
    done.then(untrack, untrack)
    return done
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
    const text = this.errorFrame(JSON.stringify(body))
    this.events++
    this.bytes += Buffer.byteLength(text)
    this.res.write(text)
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
    this.stop()
    this.res.end()
    // What waited for drain was handed to the socket: those sends succeeded.
    const resume = this.resume
    this.resume = this.abandon = undefined
    resume?.()
  }

  private stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer)
    this.timer = undefined
    this.end = performance.now()
    traceStream(this.span, this.events, this.bytes)
  }

  drained(): void {
    const resume = this.resume
    this.resume = this.abandon = undefined
    resume?.()
  }

  /** The response closed: after its end, or because the client went first. */
  released(): void {
    if (this.isReleased) return
    this.isReleased = true
    this.res.off('drain', onDrain)
    this.res.off('close', onClose)
    if (this.state === OPEN) {
      this.state = GONE
      this.clientGone = true
      this.stop()
      this.gone?.()
    }
    const abandon = this.abandon
    this.resume = this.abandon = undefined
    abandon?.(new StreamClosedError())
    this.settle?.()
  }
}
