import type { Arbitrary } from 'fast-check'
import { toAdapter } from '../../adapters/resolve.js'
import type { SchemaAdapter } from '../../engine/adapter.js'
import type { GuardLimits } from '../../runtime/guards/limits.js'
import { type QueryArrayKeys, queryArrayKeys } from '../../runtime/pipeline/query-array-keys.js'
import type { AnyRoute } from '../../runtime/pipeline/route-types.js'
import { unprefixed } from '../../shared/error-codes.js'
import {
  hostileArbitrary,
  libraryAccepts,
  missArbitrary,
  type Reach,
  validArbitrary,
} from '../arbitrary/arbitrary.js'
import { boundedFilter } from '../arbitrary/bounded-filter.js'
import { partCaps } from '../arbitrary/caps.js'
import type { HostileKind } from '../arbitrary/hostile.js'
import type { Miss } from '../arbitrary/ir-invalid.js'
import { fastCheck } from '../load-fast-check.js'
import { guardsRefuse } from './guard-refusal.js'
import {
  bodyFromWire,
  bodyWire,
  headersWire,
  type Part,
  paramsWire,
  queryFromWire,
  queryWire,
  type Wire,
} from './wire.js'

/** The kind of request: every part valid, one rule of one part broken, or a guard case. */
export type RequestKind = 'valid' | 'invalid' | 'hostile'

/** One generated request, ready to send. */
export interface FuzzRequest {
  readonly kind: RequestKind
  readonly method: string
  /** The path with its parameters filled in, and the query string. */
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | undefined
  /** An invalid request: the part and the field (as `details.field` names it) that is broken. */
  readonly broken?: { readonly part: Part; readonly field: string; readonly deep: boolean }
  readonly hostile?: HostileKind
  /** A request the guards must refuse (400, or 413 for a body past the parser's limit). */
  readonly expect?: readonly number[]
}

type Parts = { params?: unknown; query?: unknown; headers?: unknown; body?: unknown }
type Adapters = Partial<Record<Part, SchemaAdapter>>

const partNames: readonly Part[] = ['params', 'query', 'headers', 'body']

/** The `:name` parameters of an Express path, or undefined for syntax the fuzzer cannot fill. */
export function paramNames(path: string): string[] | undefined {
  if (/[*?()[\]{}+]/.test(path)) return undefined
  return [...path.matchAll(/:([A-Za-z0-9_$]+)/g)].map((m) => m[1]!)
}

function toWire(
  part: Part,
  value: unknown,
  names: readonly string[],
  arrayKeys: QueryArrayKeys,
): Wire<unknown> {
  if (part === 'params') return paramsWire(value, names)
  if (part === 'query') return queryWire(value, arrayKeys.repeatable)
  if (part === 'headers') return headersWire(value)
  return bodyWire(value)
}

/** What the server hands the part's schema for the wire form. */
function fromWire(
  part: Part,
  wire: unknown,
  headers: Readonly<Record<string, string>>,
  arrayKeys: QueryArrayKeys,
): unknown {
  if (part === 'query') return queryFromWire(wire as string, arrayKeys.lists)
  if (part === 'body') return bodyFromWire(wire as string | undefined)
  if (part === 'headers')
    return { host: 'localhost', connection: 'keep-alive', ...headers, ...(wire as object) }
  return wire
}

/** Options that shape every request of a run. */
export interface RequestOptions {
  readonly headers: Readonly<Record<string, string>>
  /** The route's guard limits (its own over the app's). */
  readonly limits: GuardLimits
}

/** The arbitrary of requests for one route, and what it cannot generate (with why). */
export interface RouteRequests {
  readonly arbitrary: Arbitrary<FuzzRequest> | undefined
  readonly notes: readonly string[]
}

/**
 * Requests for a route, from its schemas: valid ones (every part accepted by its library after
 * the trip through the wire), invalid ones (one rule of one part broken, the rest valid) and
 * hostile ones (guard cases in the body or the query).
 */
export function routeRequests(
  method: string,
  path: string,
  route: AnyRoute,
  options: RequestOptions,
): RouteRequests {
  const fc = fastCheck()
  const names = paramNames(path)
  if (names === undefined)
    return { arbitrary: undefined, notes: ['a path syntax the fuzzer cannot fill'] }
  const adapters: Adapters = {}
  for (const part of partNames)
    if (route[part] !== undefined) adapters[part] = toAdapter(route[part])
  const arrayKeys = queryArrayKeys(adapters.query)
  const notes = new Set<string>()
  const reach = (part: Part): Reach => ({ caps: partCaps(part, options.limits), notes })
  const travels = (part: Part, value: unknown, accepted: boolean): boolean => {
    const wire = toWire(part, value, names, arrayKeys)
    if (!wire.ok) return false
    const adapter = adapters[part]
    if (adapter === undefined) return accepted
    const answer = libraryAccepts(adapter, fromWire(part, wire.wire, options.headers, arrayKeys))
    return answer === undefined || answer === accepted
  }
  const valid: Partial<Record<Part, Arbitrary<unknown>>> = {}
  for (const part of partNames) {
    const adapter = adapters[part]
    if (adapter === undefined) {
      valid[part] = fc.constant(undefined)
      continue
    }
    let values: Arbitrary<unknown>
    try {
      values = validArbitrary(adapter, part, reach(part))
    } catch (error) {
      // No valid value (a bound past the guards' limits, a schema that accepts nothing): no request.
      return {
        arbitrary: undefined,
        notes: [...notes, `no requests: ${unprefixed((error as Error).message)}`],
      }
    }
    valid[part] = boundedFilter(
      fc,
      values,
      (v) => travels(part, v, true),
      `valid ${part} that survive the trip over HTTP`,
    )
  }
  const validParts = fc.record(valid as Record<Part, Arbitrary<unknown>>)
  const build = (kind: RequestKind, parts: Parts, extra: Partial<FuzzRequest> = {}) =>
    assemble(method, path, names, parts, { ...options, arrayKeys }, kind, extra)
  const kinds: { arbitrary: Arbitrary<FuzzRequest>; weight: number; kind: RequestKind }[] = [
    { kind: 'valid', weight: 3, arbitrary: validParts.map((p) => build('valid', p)) },
  ]
  const invalid: Arbitrary<FuzzRequest>[] = []
  for (const part of partNames) {
    const adapter = adapters[part]
    if (adapter === undefined) continue
    let misses = missArbitrary(adapter, part, reach(part))
    if (part === 'body' && libraryAccepts(adapter, undefined) === false) {
      const none = fc.constant<Miss>({ value: undefined, path: [], deep: false })
      misses = misses === undefined ? none : fc.oneof(misses, none)
    }
    if (misses === undefined) continue
    const travelling = boundedFilter(
      fc,
      misses,
      (m) => travels(part, m.value, false),
      `invalid ${part} that survive the trip over HTTP`,
    )
    invalid.push(
      fc.tuple(validParts, travelling).map(([p, m]) =>
        build(
          'invalid',
          { ...p, [part]: m.value },
          {
            broken: {
              part,
              field: m.path.length > 0 ? m.path.join('.') : part,
              deep: m.deep || (part === 'query' && listedScalar(m, arrayKeys.lists)),
            },
          },
        ),
      ),
    )
  }
  if (invalid.length > 0)
    kinds.push({ kind: 'invalid', weight: 3, arbitrary: fc.oneof(...invalid) })
  kinds.push({
    kind: 'hostile',
    weight: 1,
    arbitrary: hostileRequests(adapters, validParts, build, reach('body')),
  })
  return usable(kinds, notes)
}

// A single value where a list key's array belongs travels as a one-element array: the library
// reports it at the item (`ids.0`) as well as at the key.
function listedScalar(m: Miss, lists: ReadonlySet<string>): boolean {
  const [key] = m.path
  if (m.path.length !== 1 || !lists.has(String(key))) return false
  return !Array.isArray((m.value as Record<string, unknown>)[key as string])
}

type Build = (kind: RequestKind, parts: Parts, extra?: Partial<FuzzRequest>) => FuzzRequest

function hostileRequests(
  adapters: Adapters,
  validParts: Arbitrary<Parts>,
  build: Build,
  reach: Reach,
): Arbitrary<FuzzRequest> {
  const fc = fastCheck()
  const arbs: Arbitrary<FuzzRequest>[] = [
    // A repeated query key the schema does not declare as an array: 400 PARAM_POLLUTION.
    validParts.map((p) => build('hostile', p, { hostile: 'repeated-key' })),
  ]
  const body = adapters.body
  if (body !== undefined) {
    arbs.push(
      fc.tuple(validParts, hostileArbitrary(body, 'body', reach)).map(([p, h]) =>
        build(
          'hostile',
          { ...p, body: h.value },
          {
            hostile: h.kind,
          },
        ),
      ),
    )
  }
  return fc.oneof(...arbs)
}

function usable(
  kinds: { arbitrary: Arbitrary<FuzzRequest>; weight: number; kind: RequestKind }[],
  left: ReadonlySet<string>,
): RouteRequests {
  const fc = fastCheck()
  const notes: string[] = []
  const ok = kinds.filter((k) => {
    try {
      fc.sample(k.arbitrary, { numRuns: 3, seed: 1 })
      return true
    } catch (error) {
      notes.push(`no ${k.kind} requests: ${unprefixed((error as Error).message)}`)
      return false
    }
  })
  // Sampling builds every part once: the notes of what was left out are all in by now.
  return { arbitrary: ok.length === 0 ? undefined : fc.oneof(...ok), notes: [...left, ...notes] }
}

function assemble(
  method: string,
  path: string,
  names: readonly string[],
  parts: Parts,
  options: RequestOptions & { readonly arrayKeys: QueryArrayKeys },
  kind: RequestKind,
  extra: Partial<FuzzRequest>,
): FuzzRequest {
  const params = paramsWire(parts.params, names)
  const filled = params.ok ? params.wire : {}
  const pathname = path.replace(/:([A-Za-z0-9_$]+)/g, (_, n: string) =>
    encodeURIComponent(filled[n] ?? '1'),
  )
  const q = queryWire(parts.query, options.arrayKeys.repeatable)
  let query = q.ok ? q.wire : ''
  if (extra.hostile === 'repeated-key')
    query = `${query}${query ? '&' : ''}fuzz_repeated=1&fuzz_repeated=2`
  const h = headersWire(parts.headers)
  const b = bodyWire(parts.body)
  const body = b.ok ? b.wire : undefined
  const headers: Record<string, string> = { ...options.headers, ...(h.ok ? h.wire : {}) }
  if (body !== undefined) headers['content-type'] = 'application/json'
  // The guards answer first: a 400 (413 when the body is also past the parser's size limit).
  const refused = guardsRefuse(
    { params: filled, query, body },
    options.limits,
    options.arrayKeys.repeatable,
  )
  return {
    kind,
    method: method.toUpperCase(),
    url: `${pathname}${query ? `?${query}` : ''}`,
    headers,
    body,
    ...(refused ? { expect: body === undefined ? [400] : [400, 413] } : {}),
    ...extra,
  }
}
