import type { IRNode } from '../../engine/ir/types.js'
import type { EnvelopeNames } from '../../shared/envelope-shape.js'
import { errorCodes } from '../../shared/error-codes.js'
import { isObject } from '../../shared/is-object.js'
import type { FuzzRequest } from './fuzz-request.js'
import type { ErrorAnswerCheck, Operation } from './response-check.js'
import type { Answer } from './send-request.js'
import { type StreamChecks, streamProblem } from './stream-check.js'
import { undeclaredKey } from './undeclared.js'

/** What a route's answers are checked against. */
export interface RouteChecks {
  /** The operation in the OpenAPI document; undefined when it has none (statuses not checked). */
  readonly operation: Operation | undefined
  /** Statuses the caller allows beyond the document (`statuses` option). */
  readonly allowed: ReadonlySet<number>
  /** The document's error answer (envelope or problem details), for statuses it does not list. */
  readonly errorAnswer: ErrorAnswerCheck
  /** The IR of the route's response schema, for keys it does not declare. */
  readonly response: IRNode | undefined
  /** The route has a `rateLimit`: its 429 may answer any request. */
  readonly rateLimited: boolean
  /**
   * The codes of the 503 answers shapeguard may give the route in place of its handler's:
   * HANDLER_TIMEOUT with a handler timeout, OVERLOADED with load shedding.
   */
  readonly unavailable: ReadonlySet<string>
  /** The success envelope's fields, as the app's `response.shape` names them. */
  readonly envelope: EnvelopeNames
  /** A streaming route's (`events`, `stream`): its success answers are read as a stream. */
  readonly stream?: StreamChecks
  /** Milliseconds an answer may take (`maxResponseTime`); undefined for no limit. */
  readonly maxResponseTime?: number | undefined
}

const prototypeKeys = () => Object.getOwnPropertyNames(Object.prototype).join(',')
const cleanPrototype = prototypeKeys()

// The validation issues of a 422: the envelope's `error.details`, or problem details' `errors`.
function issuesOf(body: unknown): { field: unknown; message: unknown }[] | undefined {
  if (!isObject(body)) return undefined
  const details = isObject(body.error) ? body.error.details : body.errors
  if (details === null || details === undefined) return undefined
  return (Array.isArray(details) ? details : [details]).filter(isObject) as never
}

const nameOf = (checks: RouteChecks) =>
  checks.errorAnswer.name === 'envelope' ? 'an envelope' : checks.errorAnswer.name

// The code of an error answer, in either format.
const codeOf = (body: unknown) =>
  isObject(body) ? (isObject(body.error) ? body.error.code : body.code) : undefined

// An answer's media type, without parameters, lower case.
function essenceOf(answer: Answer): string | undefined {
  const type = answer.headers['content-type']
  return typeof type === 'string' ? type.split(';')[0]!.trim().toLowerCase() : undefined
}

/**
 * What an error answer must be: the media type and the schema the document gives its status,
 * else the document's error answer; undefined when it is.
 */
function errorAnswer(answer: Answer, body: unknown, checks: RouteChecks): string | undefined {
  const { status } = answer
  const op = checks.operation
  const documented = op?.statuses.has(status) === true
  const { name } = checks.errorAnswer
  const media = documented ? op!.media(status) : checks.errorAnswer.media
  if (media !== undefined && essenceOf(answer) !== media)
    return `answered ${status} without the Content-Type ${media} of its ${name}`
  const why = documented ? op!.check(status, body) : checks.errorAnswer.check(body)
  return why === undefined ? undefined : `answered ${status} with a malformed ${name}: ${why}`
}

function namesField(req: FuzzRequest, body: unknown): string | undefined {
  const broken = req.broken!
  const issues = issuesOf(body)
  // Details hidden by the app's exposure options: nothing to compare.
  if (issues === undefined) return undefined
  const fields = issues.map((i) => String(i.field))
  const expected = broken.field
  const ok = fields.some(
    (f) =>
      f === expected || (broken.deep && (expected === broken.part || f.startsWith(`${expected}.`))),
  )
  return ok
    ? undefined
    : `an invalid request (${broken.part} field ${expected} broken) got 422 naming ${fields.join(', ') || 'no field'}`
}

/**
 * What is wrong with a success answer for a status the document does not list, or undefined: its
 * `{success}` fields must be true; a shape without one must hold its `{data}` fields and no error.
 */
function successProblem(body: unknown, fields: EnvelopeNames): string | undefined {
  if (!isObject(body)) return 'it is not an object'
  if (fields.success.length > 0) {
    const untrue = fields.success.filter((name) => body[name] !== true)
    return untrue.length === 0 ? undefined : `${untrue.join(', ')} is not true`
  }
  if (Object.hasOwn(body, 'error')) return 'it carries an error'
  const missing = fields.data.filter((name) => !Object.hasOwn(body, name))
  return missing.length === 0 ? undefined : `${missing.join(', ')} is missing`
}

function envelope(req: FuzzRequest, answer: Answer, checks: RouteChecks): string | undefined {
  if (answer.status === 204 || req.method === 'HEAD') return undefined
  if (checks.stream !== undefined && answer.status < 300)
    return streamProblem(answer, checks.stream)
  let body: unknown
  try {
    body = JSON.parse(answer.text)
  } catch {
    return `answered ${answer.status} with a body that is not JSON (not ${answer.status >= 400 ? nameOf(checks) : 'an envelope'})`
  }
  const op = checks.operation
  if (answer.status >= 400) {
    const wrong = errorAnswer(answer, body, checks)
    if (wrong !== undefined) return wrong
  } else {
    // The media type the document gives the status, else the envelope's (JSON).
    const media = op?.statuses.has(answer.status) === true ? op.media(answer.status) : undefined
    const essence = essenceOf(answer)
    if (media !== undefined ? essence !== media : essence !== 'application/json')
      return `answered ${answer.status} without the Content-Type ${media ?? 'application/json'} of its envelope`
    const why =
      op?.statuses.has(answer.status) === true
        ? op.check(answer.status, body)
        : successProblem(body, checks.envelope)
    if (why !== undefined) return `answered ${answer.status} with a malformed envelope: ${why}`
  }
  if (req.kind === 'valid' && answer.status === 422) {
    const issue = issuesOf(body)?.[0]
    return `a valid request got 422${issue ? ` (${String(issue.field)}: ${String(issue.message)})` : ''}`
  }
  if (req.kind === 'invalid') return answer.status === 422 ? namesField(req, body) : undefined
  if (answer.status >= 300 || checks.response === undefined || !isObject(body)) return undefined
  for (const name of checks.envelope.data) {
    const extra = Object.hasOwn(body, name) ? undeclaredKey(checks.response, body[name]) : undefined
    if (extra)
      return `answered ${answer.status} with ${[name, ...extra].join('.')}, which the response schema does not declare`
  }
  return undefined
}

const RATE_LIMITED = errorCodes.RATE_LIMIT_EXCEEDED.code

/** What the route's own limiter must answer: its error answer, its code and `Retry-After`. */
function rateLimitAnswer(answer: Answer, checks: RouteChecks): string | undefined {
  let body: unknown
  try {
    body = JSON.parse(answer.text)
  } catch {
    return `answered 429 with a body that is not JSON (not ${nameOf(checks)})`
  }
  const wrong = errorAnswer(answer, body, checks)
  if (wrong !== undefined) return wrong
  if (codeOf(body) !== RATE_LIMITED) return `answered 429 without the ${RATE_LIMITED} code`
  const retry = answer.headers['retry-after']
  if (typeof retry !== 'string' || !/^[1-9]\d*$/.test(retry))
    return 'answered 429 without a Retry-After header of whole seconds'
  return undefined
}

/**
 * The code of an answer that is one of the route's own 503s (`unavailable`: its timeout, load
 * shedding), or undefined for any other answer.
 */
export function unavailableCode(answer: Answer, checks: RouteChecks): string | undefined {
  if (answer.status !== 503 || checks.unavailable.size === 0) return undefined
  let code: unknown
  try {
    code = codeOf(JSON.parse(answer.text))
  } catch {
    return undefined
  }
  return typeof code === 'string' && checks.unavailable.has(code) ? code : undefined
}

/** What the route's own 503 must be: its documented error answer and `Retry-After`. */
function unavailableAnswer(answer: Answer, code: string, checks: RouteChecks): string | undefined {
  const op = checks.operation
  if (op !== undefined && !op.statuses.has(503) && !checks.allowed.has(503))
    return `answered 503 ${code}, a status the OpenAPI document does not list for this operation (it lists ${[...op.statuses].join(', ')})`
  const wrong = errorAnswer(answer, JSON.parse(answer.text), checks)
  if (wrong !== undefined) return wrong
  const retry = answer.headers['retry-after']
  if (typeof retry !== 'string' || !/^\d+$/.test(retry))
    return `answered 503 ${code} without a Retry-After header of whole seconds`
  return undefined
}

function described(req: FuzzRequest): string {
  if (req.kind === 'hostile') return `a hostile request (${req.hostile})`
  const { broken } = req
  return broken === undefined
    ? `a ${req.kind} request`
    : `an invalid request (${broken.part} field ${broken.field} broken)`
}

/** Whether the answer (its body or a header) holds one of the request's hostile values, raw or JSON-escaped. */
function echoes(req: FuzzRequest, answer: Answer): boolean {
  const headers = Object.values(answer.headers).flat().join('\n')
  return (req.echo ?? []).some((value) => {
    const escaped = JSON.stringify(value).slice(1, -1)
    return [answer.text, headers].some((text) => text.includes(value) || text.includes(escaped))
  })
}

// Credentials refused before validation: the fuzzer was not given the ones the app wants.
const authHint = (status: number) =>
  status === 401 || status === 403
    ? ' (refused before validation: give fuzzRoutes the credentials, auth or headers)'
    : ''

/**
 * The first invariant an answer breaks, in words (statuses, fields and rules; never a value of
 * the answer), or undefined: no 5xx but the route's own 503 (its timeout, load shedding: its
 * documented error answer with `Retry-After`); only statuses the OpenAPI document lists (or the caller
 * allows); a well-formed envelope that matches the documented schema, of the media type the document
 * gives its status (JSON for the envelope), and an error answer in the
 * document's format (the envelope, or problem details) with its media type; valid requests never 422;
 * invalid ones exactly 422 naming the broken field; requests past a guard limit refused with 400;
 * the route's own 429 (`rateLimit`) with its code and `Retry-After`; success data with no key the
 * response schema does not declare; a streaming route's success answer of its stream's media
 * type, each event read declared, JSON its schema accepts with no undeclared key, and no error
 * event but its time limit's HANDLER_TIMEOUT; `Object.prototype` untouched; a hostile filename or cookie never echoed.
 */
export function brokenInvariant(
  req: FuzzRequest,
  answer: Answer,
  checks: RouteChecks,
): string | undefined {
  if (prototypeKeys() !== cleanPrototype) return 'Object.prototype was modified'
  const { status } = answer
  const budget = checks.maxResponseTime
  if (budget !== undefined && answer.ms !== undefined && answer.ms > budget)
    return `answered ${status} in ${Math.round(answer.ms)} ms, past maxResponseTime (${budget} ms)`
  // The route's timeout or load shedding answered in its place: documented, not a failure.
  const unavailable = unavailableCode(answer, checks)
  if (unavailable !== undefined) return unavailableAnswer(answer, unavailable, checks)
  if (status >= 500) return `answered ${status}: a request must never get a 5xx`
  if (echoes(req, answer))
    return `answered ${status} holding what ${described(req)} sent (a raw filename or cookie): an answer must never echo it`
  // The route's own limiter may refuse any request, in its documented answer.
  if (status === 429 && checks.rateLimited) return rateLimitAnswer(answer, checks)
  const op = checks.operation
  if (op !== undefined && !op.statuses.has(status) && !checks.allowed.has(status)) {
    return `answered ${status}, a status the OpenAPI document does not list for this operation (it lists ${[...op.statuses].join(', ')})${authHint(status)}`
  }
  // The guards answer first, 400 before any schema runs; else an invalid request gets 422.
  const wanted = req.expect ?? (req.kind === 'invalid' ? [422] : undefined)
  if (wanted !== undefined && !wanted.includes(status) && !checks.allowed.has(status)) {
    const guards = req.expect === undefined || req.kind === 'hostile' ? '' : ' (past a guard limit)'
    return `${described(req)}${guards} got ${status}, not ${wanted.join(' or ')}${authHint(status)}`
  }
  return envelope(req, answer, checks)
}
