import type { Response } from 'express'
import { optionError } from '../../shared/error-codes.js'
import type { ResponseStripper } from '../core/context.js'
import type { NdjsonStream, StreamItems } from '../response/stream-types.js'
import { isPending } from '../response/strip-response.js'
import { ndjsonLine } from './frame.js'
import { OpenStream } from './open-stream.js'
import { startStream } from './start.js'
import { type LimitsFor, limitStream } from './stream-timer.js'

type Pulled = Iterator<unknown> | AsyncIterator<unknown>

/** `res.ndjson()`'s stream: each item stripped by the route's `stream` schema, one line each. */
class LineStream extends OpenStream implements NdjsonStream {
  private pulling: Pulled | undefined

  constructor(
    res: Response,
    signal: AbortSignal,
    private readonly strip: ResponseStripper,
  ) {
    super(res, signal)
    this.pulling = undefined
  }

  send(item: unknown): Promise<void> {
    // No closure on the common path: only a send that must wait for another keeps one.
    if (this.idle) return this.settled(this.emit(item))
    return this.later(() => this.emit(item))
  }

  private emit(item: unknown): Promise<void> {
    const given = item ?? null
    let json = this.strip.json?.(given, '')
    if (json === undefined) {
      let stripped: unknown
      try {
        stripped = this.strip(given)
      } catch (err) {
        return this.fail(err)
      }
      if (isPending(stripped)) {
        return stripped.then(
          (value) => this.write(ndjsonLine(JSON.stringify(value) ?? 'null'), true),
          (err: unknown) => this.fail(err),
        )
      }
      json = JSON.stringify(stripped) ?? 'null'
    }
    return this.write(ndjsonLine(json), true)
  }

  protected errorFrame(json: string): string {
    return ndjsonLine(json)
  }

  /** Sends every item, one at a time, each written before the next is pulled; then ends. */
  async pipe(iterator: Pulled): Promise<void> {
    this.pulling = iterator
    this.gone = () => this.stopPulling()
    let done = false
    try {
      while (this.open) {
        const step = await iterator.next()
        if (step.done === true) {
          done = true
          break
        }
        await this.send(step.value)
      }
    } finally {
      if (!done) this.stopPulling()
    }
    await this.close()
  }

  // The client went, or a send failed: the iterable's own clean-up runs (a generator's finally).
  private stopPulling(): void {
    const iterator = this.pulling
    this.pulling = undefined
    if (iterator?.return === undefined) return
    try {
      const result = iterator.return()
      if (result instanceof Promise) result.catch(() => {})
    } catch {
      // Its clean-up failed: nothing more to ask of it.
    }
  }
}

function iteratorOf(items: unknown): Pulled {
  if (typeof items === 'object' && items !== null) {
    const async = (items as AsyncIterable<unknown>)[Symbol.asyncIterator]
    if (typeof async === 'function') return async.call(items)
    const sync = (items as Iterable<unknown>)[Symbol.iterator]
    if (typeof sync === 'function') return sync.call(items)
  }
  throw optionError(
    'SG_ERR_INVALID_OPTION',
    'shapeguard: res.ndjson(items): items must be an iterable or an async iterable',
  )
}

/** The `res.ndjson()` of a route's `stream`, its stripper compiled once, with its time limits. */
export function ndjsonStarter(strip: ResponseStripper, limitsFor: LimitsFor | undefined) {
  return function ndjson(
    res: Response,
    items: StreamItems<unknown> | undefined,
  ): NdjsonStream | Promise<void> {
    const iterator = items === undefined ? undefined : iteratorOf(items)
    const signal = startStream(res, 'application/x-ndjson', 'ndjson')
    const stream = new LineStream(res, signal, strip)
    if (res.req.method === 'HEAD') void stream.close()
    else limitStream(stream, res, limitsFor)
    return iterator === undefined ? stream : stream.pipe(iterator)
  }
}
