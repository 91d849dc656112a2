import type { Arbitrary } from 'fast-check'
import { toAdapter } from '../../adapters/resolve.js'
import type { SchemaAdapter } from '../../engine/adapter.js'
import type { GuardLimits } from '../../runtime/guards/limits.js'
import { sanitizeParams } from '../../runtime/guards/params-guard.js'
import { queryArrayKeys } from '../../runtime/pipeline/query-array-keys.js'
import type { AnyRoute } from '../../runtime/pipeline/route-types.js'
import { unprefixed } from '../../shared/error-codes.js'
import {
  libraryAccepts,
  missArbitrary,
  type Reach,
  validArbitrary,
} from '../arbitrary/arbitrary.js'
import { boundedFilter } from '../arbitrary/bounded-filter.js'
import { partCaps } from '../arbitrary/caps.js'
import type { Miss } from '../arbitrary/ir-invalid.js'
import { fastCheck } from '../load-fast-check.js'
import { assemble, type Parts, type Shape } from './assemble.js'
import { cookiesFromWire, cookiesWire } from './cookie-wire.js'
import { type FormFields, formFromWire, formWire } from './form-wire.js'
import type { FuzzPhase } from './fuzz-phase.js'
import type { FuzzRequest } from './fuzz-request.js'
import { deterministicPhases } from './phases/deterministic.js'
import { type Build, type Kind, specialRequests } from './special-requests.js'
import { validUploads } from './upload-cases.js'
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

type Adapters = Partial<Record<Part, SchemaAdapter>>

const partNames: readonly Part[] = [
  'params',
  'query',
  'headers',
  'body',
  'cookies',
  'signedCookies',
]
const cookieParts: ReadonlySet<Part> = new Set(['cookies', 'signedCookies'])

/** The `:name` parameters of an Express path, or undefined for syntax the fuzzer cannot fill. */
export function paramNames(path: string): string[] | undefined {
  if (/[*?()[\]{}+]/.test(path)) return undefined
  return [...path.matchAll(/:([A-Za-z0-9_$]+)/g)].map((m) => m[1]!)
}

function toWire(part: Part, value: unknown, shape: Shape): Wire<unknown> {
  if (part === 'params') return paramsWire(value, shape.names)
  if (part === 'query') return queryWire(value, shape.arrayKeys.repeatable)
  if (part === 'headers') return headersWire(value)
  if (part === 'cookies') return cookiesWire(value)
  // The signature does not change what travels: any secret tells.
  if (part === 'signedCookies') return cookiesWire(value, 'secret')
  if (shape.multipart)
    return formWire(value, shape.formKeys.repeatable, shape.limits.maxArrayLength)
  return bodyWire(value)
}

/** What the server hands the part's schema for the value sent. */
function fromWire(part: Part, value: unknown, wire: unknown, shape: Shape): unknown {
  if (part === 'query') return queryFromWire(wire as string, shape.arrayKeys.lists)
  if (cookieParts.has(part)) return cookiesFromWire(value)
  if (part === 'body' && shape.multipart)
    return formFromWire(wire as FormFields, shape.formKeys.lists)
  if (part === 'body') return bodyFromWire(wire as string | undefined)
  if (part === 'headers')
    return { host: 'localhost', connection: 'keep-alive', ...shape.headers, ...(wire as object) }
  if (part === 'params') {
    // The guards clean a path parameter before its schema sees it ('/f/a%00b' reaches it as 'ab').
    const params = { ...(wire as object) }
    sanitizeParams(params, shape.limits)
    return params
  }
  return wire
}

/** Options that shape every request of a run. */
export interface RequestOptions {
  readonly headers: Readonly<Record<string, string>>
  /** The route's guard limits (its own over the app's). */
  readonly limits: GuardLimits
  /** The app's first cookie secret (`shapeguard({ cookies: { secrets } })`), when it could be read. */
  readonly secret?: string | undefined
  /** The phases of the run: the deterministic lists are built only when theirs is on. */
  readonly phases?: ReadonlySet<FuzzPhase> | undefined
}

/** The arbitrary of requests for one route, and what it cannot generate (with why). */
export interface RouteRequests {
  readonly arbitrary: Arbitrary<FuzzRequest> | undefined
  /** Its valid requests alone, when it has any. */
  readonly valid?: Arbitrary<FuzzRequest> | undefined
  /** The examples phase: requests built from the schemas' own examples and defaults. */
  readonly examples: readonly FuzzRequest[]
  /** The boundaries phase: each constraint's edges, one request each, always the same. */
  readonly boundaries: readonly FuzzRequest[]
  readonly notes: readonly string[]
}

// The field a 422 names for a broken path: a cookie's after its slot (`cookies.theme`).
const fieldOf = (part: Part, path: readonly PropertyKey[]) =>
  path.length === 0 ? part : cookieParts.has(part) ? `${part}.${path.join('.')}` : path.join('.')

/**
 * Requests for a route, from its schemas: valid ones (every part accepted by its library after
 * the trip through the wire, with valid uploads and signed cookies), invalid ones (one rule of one
 * part broken, the rest valid) and hostile ones (guard cases; uploads and cookie headers, see
 * special-requests.ts).
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
    return {
      arbitrary: undefined,
      examples: [],
      boundaries: [],
      notes: ['a path syntax the fuzzer cannot fill'],
    }
  const adapters: Adapters = {}
  for (const part of partNames)
    if (route[part] !== undefined) adapters[part] = toAdapter(route[part])
  const files = route.files ?? {}
  const shape: Shape = {
    method,
    path,
    names,
    headers: options.headers,
    limits: options.limits,
    arrayKeys: queryArrayKeys(adapters.query),
    formKeys: queryArrayKeys(adapters.body),
    multipart: Object.keys(files).length > 0,
    secret: options.secret,
  }
  const notes = new Set<string>()
  const reach = (part: Part): Reach => ({ caps: partCaps(part, options.limits), notes })
  const travels = (part: Part, value: unknown, accepted: boolean): boolean => {
    const wire = toWire(part, value, shape)
    if (!wire.ok) return false
    const adapter = adapters[part]
    if (adapter === undefined) return accepted
    const answer = libraryAccepts(adapter, fromWire(part, value, wire.wire, shape))
    return answer === undefined || answer === accepted
  }
  const valid: Record<string, Arbitrary<unknown>> = {}
  try {
    for (const part of partNames) {
      const adapter = adapters[part]
      valid[part] =
        adapter === undefined
          ? fc.constant(undefined)
          : boundedFilter(
              fc,
              validArbitrary(adapter, part, reach(part)),
              (v) => travels(part, v, true),
              `valid ${part} that survive the trip over HTTP`,
            )
    }
    if (shape.multipart) valid.files = validUploads(fc, files)
  } catch (error) {
    // No valid value (a bound past the guards' limits, a schema that accepts nothing): no request.
    return {
      arbitrary: undefined,
      examples: [],
      boundaries: [],
      notes: [...notes, `no requests: ${unprefixed((error as Error).message)}`],
    }
  }
  const validParts = fc.record(valid) as Arbitrary<Parts>
  const build: Build = (kind, parts, extra = {}) => assemble(shape, parts, kind, extra)
  const kinds: Kind[] = []
  // Without the app's secret no signed cookie is valid: only what needs none is sent.
  const signable = adapters.signedCookies === undefined || shape.secret !== undefined
  if (signable) {
    kinds.push({ kind: 'valid', weight: 3, arbitrary: validParts.map((p) => build('valid', p)) })
    const invalid = invalidRequests(adapters, validParts, build, travels, reach, shape.multipart)
    if (invalid !== undefined) kinds.push({ kind: 'invalid', weight: 3, arbitrary: invalid })
  } else
    notes.add(
      "the app's cookie secrets could not be read (its shapeguard() was not reached): no valid requests, only wrong-signature and hostile ones",
    )
  kinds.push(...specialRequests({ adapters, files, validParts, build, reach, notes }))
  const routeNotes = usable(kinds, notes)
  const broken = (
    part: Part,
    value: unknown,
    path: readonly (string | number)[],
    deep: boolean,
  ) => ({
    part,
    field: fieldOf(part, path),
    deep: deep || (part === 'query' && listedScalar({ value, path, deep }, adapters)),
  })
  const wanted = options.phases ?? new Set(['examples', 'boundaries'])
  const phases = deterministicPhases(signable ? validParts : undefined, wanted, {
    adapters,
    build,
    reach,
    travels,
    broken,
    multipart: shape.multipart,
    notes,
  })
  return { ...routeNotes, ...phases, notes: [...routeNotes.notes, ...notes].filter(uniqueNote) }
}

const uniqueNote = (n: string, i: number, all: readonly string[]) => all.indexOf(n) === i

function invalidRequests(
  adapters: Adapters,
  validParts: Arbitrary<Parts>,
  build: Build,
  travels: (part: Part, value: unknown, accepted: boolean) => boolean,
  reach: (part: Part) => Reach,
  multipart: boolean,
): Arbitrary<FuzzRequest> | undefined {
  const fc = fastCheck()
  const invalid: Arbitrary<FuzzRequest>[] = []
  for (const part of partNames) {
    const adapter = adapters[part]
    if (adapter === undefined) continue
    let misses = missArbitrary(adapter, part, reach(part))
    // No JSON body at all; a form always has one (its fields, maybe none).
    if (part === 'body' && !multipart && libraryAccepts(adapter, undefined) === false) {
      const none = fc.constant<Miss>({ value: undefined, path: [], deep: false })
      misses = misses === undefined ? none : fc.oneof(misses, none)
    }
    if (misses === undefined) continue
    const travelling = boundedFilter(
      fc,
      misses,
      (m) => (!multipart || m.value !== undefined) && travels(part, m.value, false),
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
              field: fieldOf(part, m.path),
              deep: m.deep || (part === 'query' && listedScalar(m, adapters)),
            },
          },
        ),
      ),
    )
  }
  return invalid.length === 0 ? undefined : fc.oneof(...invalid)
}

// A single value where a list key's array belongs travels as a one-element array: the library
// reports it at the item (`ids.0`) as well as at the key.
function listedScalar(m: Miss, adapters: Adapters): boolean {
  const [key] = m.path
  if (m.path.length !== 1 || !queryArrayKeys(adapters.query).lists.has(String(key))) return false
  return !Array.isArray((m.value as Record<string, unknown>)[key as string])
}

function usable(kinds: readonly Kind[], left: ReadonlySet<string>): RouteRequests {
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
  return {
    arbitrary: ok.length === 0 ? undefined : fc.oneof(...ok),
    valid: ok.find((k) => k.kind === 'valid')?.arbitrary,
    examples: [],
    boundaries: [],
    notes: [...left, ...notes],
  }
}
