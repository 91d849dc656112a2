import { optionError } from '../../../shared/error-codes.js'
import { isObject } from '../../../shared/is-object.js'
import { type FuzzPhase, fuzzPhases } from '../fuzz-phase.js'
import type { FuzzFailure, StatefulStep, StatefulSteps } from '../fuzz-report.js'
import type { FuzzRequest, RequestKind } from '../fuzz-request.js'

// A failure of a JSON report read back, every field checked against what jsonReport writes: a
// file edited by hand or cut short is refused naming the field's JSON path, never its value.

/** What is wrong with the text readJsonReport was given. */
export const notReport = (why: string) =>
  optionError('SG_ERR_INVALID_OPTION', `shapeguard: readJsonReport(): ${why}`)

const bad = (path: string, what: string) => notReport(`${path} is not ${what}`)

// An HTTP token (RFC 9110): a method, a header's name.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
const KINDS: readonly RequestKind[] = ['valid', 'invalid', 'hostile']
const PARTS = ['params', 'query', 'headers', 'body', 'cookies', 'signedCookies', 'files']
const COMMANDS: readonly StatefulStep['command'][] = ['create', 'live', 'gone', 'prior']

function text(value: unknown, path: string): string {
  if (typeof value !== 'string') throw bad(path, 'a string')
  return value
}

function oneOf<T extends string>(value: unknown, path: string, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) throw bad(path, `one of ${allowed.join(', ')}`)
  return value as T
}

function count(value: unknown, path: string, max = Number.MAX_SAFE_INTEGER): number {
  if (!Number.isSafeInteger(value) || (value as number) < 0 || (value as number) > max)
    throw bad(path, max === Number.MAX_SAFE_INTEGER ? 'a whole number' : `a whole number to ${max}`)
  return value as number
}

/** An integer (a seed). */
export function integer(value: unknown, path: string): number {
  if (!Number.isSafeInteger(value)) throw bad(path, 'an integer')
  return value as number
}

function list<T>(value: unknown, path: string, item: (v: unknown, at: string) => T): T[] {
  if (!Array.isArray(value)) throw bad(path, 'an array')
  return value.map((v, i) => item(v, `${path}[${i}]`))
}

// An object's key in a path: as JSON, so that no name can pass for more of the path.
const keyPath = (path: string, key: string) => `${path}[${JSON.stringify(key)}]`

function headersOf(value: unknown, path: string): Record<string, string> {
  if (!isObject(value)) throw bad(path, 'an object of header names and values')
  for (const [name, v] of Object.entries(value)) {
    if (!TOKEN.test(name)) throw notReport(`${path} has a key that is not a header name`)
    text(v, keyPath(path, name))
  }
  return value as Record<string, string>
}

function brokenOf(value: unknown, path: string): NonNullable<FuzzRequest['broken']> {
  if (!isObject(value)) throw bad(path, 'an object (part, field, deep)')
  const part = oneOf(value.part, `${path}.part`, PARTS) as NonNullable<
    FuzzRequest['broken']
  >['part']
  const field = text(value.field, `${path}.field`)
  if (typeof value.deep !== 'boolean') throw bad(`${path}.deep`, 'true or false')
  return { part, field, deep: value.deep }
}

function bodyOf(value: Record<string, unknown>, path: string): string | Buffer | undefined {
  const { body, bodyEncoding } = value
  if (bodyEncoding !== undefined) oneOf(bodyEncoding, `${path}.bodyEncoding`, ['base64'])
  if (body === undefined) return undefined
  const read = text(body, `${path}.body`)
  return bodyEncoding === 'base64' ? Buffer.from(read, 'base64') : read
}

/** A request as jsonReport writes it. */
export function requestOf(value: unknown, path: string): FuzzRequest {
  if (!isObject(value)) throw bad(path, 'a request (method, url, headers)')
  const kind = oneOf(value.kind, `${path}.kind`, KINDS)
  const method = text(value.method, `${path}.method`)
  if (!TOKEN.test(method)) throw bad(`${path}.method`, 'an HTTP method')
  const url = text(value.url, `${path}.url`)
  if (!url.startsWith('/')) throw bad(`${path}.url`, 'a path (starting with /)')
  const headers = headersOf(value.headers, `${path}.headers`)
  if (kind === 'invalid' && value.broken === undefined)
    throw notReport(`${path}.broken is missing: an invalid request names the field it breaks`)
  const statuses = (v: unknown, at: string) => list(v, at, (s, i) => count(s, i, 599))
  return {
    kind,
    method,
    url,
    headers,
    body: bodyOf(value, path),
    ...(value.broken !== undefined && { broken: brokenOf(value.broken, `${path}.broken`) }),
    ...(value.hostile !== undefined && { hostile: text(value.hostile, `${path}.hostile`) }),
    ...(value.expect !== undefined && { expect: statuses(value.expect, `${path}.expect`) }),
    ...(value.echo !== undefined && { echo: list(value.echo, `${path}.echo`, text) }),
  }
}

function stepOf(value: unknown, path: string): StatefulStep {
  if (!isObject(value)) throw bad(path, 'a command (command, route, request)')
  return {
    command: oneOf(value.command, `${path}.command`, COMMANDS),
    route: text(value.route, `${path}.route`),
    request: requestOf(value.request, `${path}.request`),
    ...(value.list !== undefined && { list: requestOf(value.list, `${path}.list`) }),
    ...(value.pick !== undefined && { pick: count(value.pick, `${path}.pick`) }),
  }
}

function statefulOf(value: unknown, path: string): StatefulSteps {
  if (value === undefined)
    throw notReport(
      `${path} is missing: a stateful failure needs its commands to replay (a report of an older shapeguard: fuzz the stateful phase again)`,
    )
  if (!isObject(value)) throw bad(path, 'an object (resource, steps)')
  const steps = list(value.steps, `${path}.steps`, stepOf)
  if (steps.length === 0) throw bad(`${path}.steps`, 'a list of at least one command')
  return { resource: text(value.resource, `${path}.resource`), steps }
}

/** A failure as jsonReport writes it; a stateful one with the commands its replay runs. */
export function failureOf(value: unknown, path: string): FuzzFailure {
  if (!isObject(value)) throw bad(path, 'a failure (route, invariant, request)')
  const phase = oneOf(value.phase, `${path}.phase`, fuzzPhases) as FuzzPhase
  const sequence =
    value.sequence === undefined ? undefined : list(value.sequence, `${path}.sequence`, requestOf)
  return {
    route: text(value.route, `${path}.route`),
    phase,
    invariant: text(value.invariant, `${path}.invariant`),
    request: requestOf(value.request, `${path}.request`),
    ...(sequence && { sequence }),
    ...(phase === 'stateful' && { stateful: statefulOf(value.stateful, `${path}.stateful`) }),
    curl: text(value.curl, `${path}.curl`),
    seed: integer(value.seed, `${path}.seed`),
  }
}
