import type { RequestLogSlot, StreamFigures } from '../core/context.js'
import type { TraceFields } from '../telemetry/trace-fields.js'
import type { CappedBody } from './body-cap.js'
import { type ErrorFields, stackHead } from './error-fields.js'
import { ANSI } from './pretty.js'
import { printable } from './printable.js'

/** How pretty request lines look; fixed at mount. */
export interface LineStyle {
  readonly lineColor: 'method' | 'level'
  readonly shortRequestId: boolean
}

const METHOD_COLOR: Readonly<Record<string, string>> = {
  GET: ANSI.green,
  POST: ANSI.cyan,
  PUT: ANSI.yellow,
  PATCH: ANSI.magenta,
  DELETE: ANSI.red,
}

function statusColor(status: number): string {
  if (status >= 500) return ANSI.red
  if (status >= 400) return ANSI.yellow
  if (status >= 300) return ANSI.cyan
  return ANSI.green
}

/** The colour a line starts with ('' when colours are off) and the reset it ends with. */
export function lineColor(
  style: LineStyle,
  colors: boolean,
  method: string,
  status: number | undefined,
): [string, string] {
  if (!colors) return ['', '']
  const color =
    style.lineColor === 'method'
      ? (METHOD_COLOR[method] ?? '')
      : status === undefined
        ? ANSI.cyan
        : statusColor(status)
  return color === '' ? ['', ''] : [color, ANSI.reset]
}

/** ` [id]` (last 8 characters with `shortRequestId`), or '' without an ID. */
export function idPart(style: LineStyle, id: string): string {
  if (id === '') return ''
  // A custom generator's ID is not checked like an upstream one: escaped like the rest.
  return ` [${printable(style.shortRequestId ? id.slice(-8) : id)}]`
}

/** ` trace_id=… span_id=… trace_flags=…` (hex only, nothing to escape), or '' without a trace. */
export function tracePart(trace: TraceFields | undefined): string {
  if (trace === undefined) return ''
  return ` trace_id=${trace.trace_id} span_id=${trace.span_id} trace_flags=${trace.trace_flags}`
}

/** Indented continuation lines under a pretty response line: error, stack, cause, bodies. */
export function detailLines(
  error: ErrorFields | undefined,
  bodies: Readonly<Record<string, CappedBody>> | undefined,
): string {
  let out = ''
  if (error !== undefined) {
    if (error.code !== undefined || error.message !== undefined) {
      const text = [error.code, error.message].filter((s) => s !== undefined).join(': ')
      out += `\n  ${printable(text)}`
    }
    if (error.stack !== undefined) out += `\n  ${stackLines(error.stack, stackHead(error))}`
    if (error.cause !== undefined) {
      const { stack, message } = error.cause
      const text =
        stack === undefined ? printable(message) : stackLines(stack, stackHead(error.cause))
      out += `\n  cause: ${text}`
    }
  }
  if (bodies !== undefined) {
    // Their JSON is escaped already (capBody).
    for (const key of Object.keys(bodies)) out += `\n  ${key}: ${bodies[key]!.json}`
  }
  return out
}

/**
 * A stack as continuation lines: its head, the error's own name and message as error-fields
 * found it there, escaped onto one line (a message holding a line break must not print a line of
 * its own: it could pass for a frame, or for a log line), then the frames that follow, one per
 * line, each escaped. A stack whose head is not known is all one line: nothing in it is known to
 * be a frame.
 */
function stackLines(stack: string, head: string | undefined): string {
  if (head === undefined || head.length === stack.length) return printable(stack)
  const frames = stack.slice(head.length + 1).split('\n')
  return [head, ...frames].map((line) => printable(line)).join('\n  ')
}

/** A stream's figures on its request line: events (or lines), body bytes, how long it ran. */
export function streamRecord(stream: StreamFigures): Record<string, unknown> {
  // Still open when the response closed: the client went (the request logger's 'close' listener
  // runs before the stream's own).
  const end = stream.end ?? performance.now()
  const record: Record<string, unknown> = {
    events: stream.events,
    bytes: stream.bytes,
    durationMs: Math.round(end - stream.start),
  }
  if (stream.clientGone || stream.end === undefined) record.clientGone = true
  return record
}

/** ` STREAM 12 events 345 B 3000ms` on a pretty line. */
export function streamPart(stream: StreamFigures): string {
  const record = streamRecord(stream)
  const { events, bytes, durationMs } = record
  return ` STREAM ${events} events ${bytes} B ${durationMs}ms${record.clientGone === true ? ' (client gone)' : ''}`
}

/**
 * The status a stream's line is logged at: the one its error after the first byte would have had
 * (read without running a getter), else the one sent.
 */
export function streamStatus(slot: RequestLogSlot, sent: number): number {
  const error = slot.error
  if (typeof error !== 'object' || error === null) return sent
  const status = Object.getOwnPropertyDescriptor(error, 'statusCode')?.value
  return typeof status === 'number' && status >= 400 && status <= 599 ? status : sent
}
