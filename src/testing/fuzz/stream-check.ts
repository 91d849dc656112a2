import { toAdapter } from '../../adapters/resolve.js'
import type { IRNode } from '../../engine/ir/types.js'
import { toJsonSchema } from '../../engine/json-schema/json-schema.js'
import type { AnyRoute } from '../../runtime/pipeline/route-types.js'
import { isObject } from '../../shared/is-object.js'
import { essenceOf, type StreamItem, type StreamRead, streamMedia } from './read-stream.js'
import { ajv } from './response-check.js'
import type { Answer } from './send-request.js'
import { undeclaredKey } from './undeclared.js'

// A streaming route's answer, event by event: each event one the route declares, its data JSON
// that its schema accepts with no key it does not declare; an `error` event (or error line) is
// the stream's error end, a failure, unless the route's own time limit ended it (HANDLER_TIMEOUT).

type Check = ((x: unknown) => boolean) & {
  errors?: { instancePath: string; message?: string }[] | null
}

/** One schema of a streaming route: an event's, or the NDJSON stream's. */
interface ItemSchema {
  /** Where its data is reported: `events.token.data`, `stream`. */
  readonly at: string
  /** Its IR, for keys it does not declare; undefined when only the library can read it. */
  readonly ir: IRNode | undefined
  /** Why a value does not match it (place and rule, no values), or undefined. */
  check(value: unknown): string | undefined
}

/** How a streaming route's success answers are checked. */
export interface StreamChecks {
  readonly kind: 'sse' | 'ndjson'
  readonly media: string
  /** By event name (SSE), or the one schema of the lines under `''` (NDJSON). */
  readonly schemas: ReadonlyMap<string, ItemSchema>
  /** An idle or total time limit applies: the stream may end with a HANDLER_TIMEOUT error event. */
  readonly limited: boolean
}

function itemSchema(schema: unknown, at: string): ItemSchema {
  const { ir } = toAdapter(schema)
  let check: Check | undefined
  try {
    // What goes out is the schema's output: the response check's mode.
    if (ir !== undefined) check = ajv().compile(toJsonSchema(ir, { io: 'output' })) as Check
  } catch {
    // A schema JSON Schema cannot hold (the docs widen it): its undeclared keys are still checked.
  }
  return {
    at,
    ir,
    check(value) {
      if (check === undefined || check(value)) return undefined
      const e = check.errors?.[0]
      const place = (e?.instancePath ?? '')
        .split('/')
        .slice(1)
        .map((k) => `.${k.replace(/~1/g, '/').replace(/~0/g, '~')}`)
        .join('')
      return `${at}${place} ${e?.message ?? 'does not match'}`
    },
  }
}

/**
 * The checks of a route's `events` (SSE) or `stream` (NDJSON); undefined for any other route.
 * @param limited an idle or total time limit applies to its streams
 */
export function streamChecks(route: AnyRoute, limited = false): StreamChecks | undefined {
  if (route.events !== undefined) {
    const events = Object.entries(route.events as Record<string, unknown>)
    const schemas = new Map(events.map(([n, s]) => [n, itemSchema(s, `events.${n}.data`)]))
    return { kind: 'sse', media: streamMedia.sse, schemas, limited }
  }
  if (route.stream === undefined) return undefined
  const schemas = new Map([['', itemSchema(route.stream, 'stream')]])
  return { kind: 'ndjson', media: streamMedia.ndjson, schemas, limited }
}

// A name or code from the answer is shown only when it reads as one: never a value's text.
const shown = (name: unknown) =>
  typeof name === 'string' && /^[A-Za-z0-9_.:-]{1,64}$/.test(name) ? name : undefined

const codeOf = (body: unknown) =>
  isObject(body) ? (isObject(body.error) ? body.error.code : body.code) : undefined

type Parsed = { ok: true; value: unknown } | { ok: false }

function parsed(data: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(data) }
  } catch {
    return { ok: false }
  }
}

// A line of an NDJSON stream that is not an item but the app's error body: a code, and a shape
// the stream's schema does not take, or the stream's last line (the runtime ends right after its
// error line, so a schema that takes anything cannot hide it there).
function errorLine(schema: ItemSchema, value: unknown, last: boolean): boolean {
  if (shown(codeOf(value)) === undefined) return false
  return (
    last ||
    (schema.ir && undeclaredKey(schema.ir, value)) !== undefined ||
    schema.check(value) !== undefined
  )
}

const TIMED_OUT = 'HANDLER_TIMEOUT'

// The runtime's error end: an `error` event the route does not declare, or an error line.
function isErrorEnd(item: StreamItem, c: StreamChecks, json: Parsed, last: boolean): boolean {
  const schema = c.schemas.get(item.event ?? '')
  return c.kind === 'sse'
    ? item.event === 'error' && schema === undefined
    : json.ok && schema !== undefined && errorLine(schema, json.value, last)
}

/**
 * Whether a stream read to its end ended by its idle or total time limit: its last event is an
 * error end with HANDLER_TIMEOUT, on a route where a limit applies.
 */
export function timedOut(read: StreamRead, c: StreamChecks): boolean {
  const item = read.items.at(-1)
  if (!c.limited || read.stop !== 'end' || item === undefined) return false
  const json = parsed(item.data)
  return json.ok && codeOf(json.value) === TIMED_OUT && isErrorEnd(item, c, json, true)
}

/** What is wrong with one event or line, or undefined. */
function itemProblem(item: StreamItem, c: StreamChecks, last: boolean) {
  const sse = c.kind === 'sse'
  const schema = c.schemas.get(item.event ?? '')
  const json = parsed(item.data)
  if (isErrorEnd(item, c, json, last)) {
    const code = json.ok ? shown(codeOf(json.value)) : undefined
    // The route's own time limit ended it: an answer it documents.
    if (last && c.limited && code === TIMED_OUT) return undefined
    return `a stream that ended in an error ${sse ? 'event' : 'line'} (${code ?? 'no code'})`
  }
  if (schema === undefined) {
    const name = shown(item.event)
    const declared = [...c.schemas.keys()].join(', ')
    return `${name === undefined ? 'an event whose name' : `an event named ${name}, which`} the route's events do not declare (${declared})`
  }
  if (!json.ok) return `${schema.at} that is not JSON`
  const extra = schema.ir && undeclaredKey(schema.ir, json.value)
  if (extra)
    return `${[schema.at, ...extra].join('.')}, which the ${sse ? "event's" : "stream's"} schema does not declare`
  const why = schema.check(json.value)
  return why === undefined ? undefined : `${sse ? 'an event' : 'a line'} its schema refuses: ${why}`
}

/**
 * The first problem of a streaming route's success answer, or undefined: its Content-Type is the
 * stream's, every event it read is declared with data its schema accepts and no undeclared key,
 * no error end, and the server did not cut the connection mid-answer.
 */
export function streamProblem(answer: Answer, c: StreamChecks): string | undefined {
  const { status } = answer
  if (essenceOf(answer.headers['content-type']) !== c.media || answer.stream === undefined)
    return `answered ${status} without the Content-Type ${c.media} of its ${c.kind === 'sse' ? 'events' : 'stream'}`
  const read: StreamRead = answer.stream
  if (read.stop === 'broken') return `answered ${status} with a stream line past the parser's bound`
  for (const [i, item] of read.items.entries()) {
    const last = read.stop === 'end' && i === read.items.length - 1
    const problem = itemProblem(item, c, last)
    if (problem !== undefined) return `answered ${status} with ${problem}`
  }
  if (read.stop === 'aborted')
    return `answered ${status} with a stream the server cut off before its end (the connection closed mid-answer)`
  return undefined
}
