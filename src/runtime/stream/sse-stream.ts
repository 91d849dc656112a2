import type { Response } from 'express'
import { checkOptions } from '../../shared/check-option.js'
import { optionError } from '../../shared/error-codes.js'
import type { ResponseStripper } from '../core/context.js'
import type { SseOptions, SseSendOptions, SseStream } from '../response/stream-types.js'
import { isPending } from '../response/strip-response.js'
import { dataLines, idLine } from './frame.js'
import { OpenStream } from './open-stream.js'
import { rejected } from './rejected.js'
import { startStream } from './start.js'
import { type LimitsFor, limitStream } from './stream-timer.js'

const defaultHeartbeat = 15_000

/** `res.sse()`'s stream: each event's data stripped by its schema, then framed. */
class EventStream extends OpenStream implements SseStream {
  constructor(
    res: Response,
    signal: AbortSignal,
    private readonly strippers: ReadonlyMap<string, ResponseStripper>,
  ) {
    super(res, signal)
  }

  send(event: string, data: unknown, options?: SseSendOptions): Promise<void> {
    const strip = this.strippers.get(event)
    if (strip === undefined) return rejected(this.unknown())
    let id = ''
    if (options !== undefined) {
      try {
        id = idLine(options.id)
      } catch (err) {
        return rejected(err)
      }
    }
    // No closure on the common path: only a send that must wait for another keeps one.
    if (this.idle) return this.settled(this.emit(event, strip, data, id))
    return this.later(() => this.emit(event, strip, data, id))
  }

  private emit(event: string, strip: ResponseStripper, data: unknown, id: string): Promise<void> {
    const given = data ?? null
    let json = strip.json?.(given, '')
    if (json === undefined) {
      let stripped: unknown
      try {
        stripped = strip(given)
      } catch (err) {
        return this.fail(err)
      }
      if (isPending(stripped)) {
        return stripped.then(
          (value) => this.frame(event, id, JSON.stringify(value) ?? 'null'),
          (err: unknown) => this.fail(err),
        )
      }
      json = JSON.stringify(stripped) ?? 'null'
    }
    return this.frame(event, id, json)
  }

  private frame(event: string, id: string, json: string): Promise<void> {
    return this.write(`event: ${event}\n${id}${dataLines(json)}\n`, true)
  }

  protected errorFrame(json: string): string {
    return `event: error\n${dataLines(json)}\n`
  }

  // The name is the handler's, maybe from data: not repeated; the declared ones are listed.
  private unknown(): Error {
    return optionError(
      'SG_ERR_UNKNOWN_NAME',
      `shapeguard: send(): the route declares no such event (${[...this.strippers.keys()].join(', ')})`,
    )
  }
}

// Node's timers take at most 2³¹−1 ms: a longer delay would fire every millisecond.
const maxMs = 2 ** 31 - 1

function milliseconds(value: unknown, field: string, min: number): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > maxMs) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `shapeguard: res.sse(): ${field} must be an integer of ms, from ${min} to ${maxMs}`,
    )
  }
}

/** The `res.sse()` of a route's `events`, their strippers compiled once, with its time limits. */
export function sseStarter(
  strippers: ReadonlyMap<string, ResponseStripper>,
  limitsFor: LimitsFor | undefined,
) {
  return function sse(res: Response, options: SseOptions | undefined): SseStream {
    if (options !== undefined) checkOptions(options, ['heartbeat', 'retry'], 'res.sse()')
    const heartbeat = options?.heartbeat ?? defaultHeartbeat
    if (heartbeat !== false) milliseconds(heartbeat, 'heartbeat', 1)
    const retry = options?.retry
    if (retry !== undefined) milliseconds(retry, 'retry', 0)
    const signal = startStream(res, 'text/event-stream; charset=utf-8', 'sse')
    const stream = new EventStream(res, signal, strippers)
    if (res.req.method === 'HEAD') {
      stream.close()
      return stream
    }
    if (retry !== undefined) stream.head(`retry: ${retry}\n\n`)
    if (heartbeat !== false) stream.heartbeat(heartbeat)
    limitStream(stream, res, limitsFor)
    return stream
  }
}
