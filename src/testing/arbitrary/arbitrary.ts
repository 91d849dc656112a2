import type { Arbitrary } from 'fast-check'
import { toAdapter } from '../../adapters/resolve.js'
import type { SchemaAdapter } from '../../engine/adapter.js'
import type { Schema } from '../../runtime/pipeline/route-types.js'
import { checkOptionalOptions as checkOptions } from '../../shared/check-option.js'
import { optionError } from '../../shared/error-codes.js'
import { fastCheck } from '../load-fast-check.js'
import { boundedFilter } from './bounded-filter.js'
import type { Caps } from './caps.js'
import { type Hostile, hostileOf } from './hostile.js'
import { type Miss, miss } from './ir-invalid.js'
import { type GenContext, gen, jsonish } from './ir-valid.js'

/** What `arbitrary()` generates. */
export type ArbitraryMode = 'valid' | 'invalid' | 'hostile'

/** Options of `arbitrary()`. */
export interface ArbitraryOptions {
  /** What to generate: values the schema accepts, near misses it rejects, or guard cases. @default 'valid' */
  readonly mode?: ArbitraryMode
}

const modes: readonly ArbitraryMode[] = ['valid', 'invalid', 'hostile']

/** A copy for the library to parse: zod's `.readonly()` freezes even an input it rejects. */
function copy(value: unknown): unknown {
  try {
    return structuredClone(value)
  } catch {
    return value
  }
}

/** Whether the schema's own library accepts a value; undefined for an async schema. */
export function libraryAccepts(adapter: SchemaAdapter, value: unknown): boolean | undefined {
  let r: ReturnType<SchemaAdapter['parse']>
  try {
    r = adapter.parse(copy(value), false)
  } catch {
    // zod throws on an intersection whose sides cannot be merged: the value is not accepted.
    return false
  }
  if (r instanceof Promise) {
    r.catch(() => {})
    return undefined
  }
  return r.success
}

/** Where generated values go over HTTP: what they must fit, and where to note what cannot. */
export interface Reach {
  readonly caps: Caps
  readonly notes: Set<string>
}

function context(at: string, reach: Reach | undefined): GenContext {
  return { fc: fastCheck(), at, recursions: new Map(), rounds: 0, ...reach }
}

function describeSchema(adapter: SchemaAdapter): string {
  return adapter.ir === undefined
    ? ` (a ${adapter.library} schema without IR: wrap a bare valibot or yup schema in valibotAdapter()/yupAdapter())`
    : ''
}

/**
 * Valid values of a schema, as the library itself decides: generated from the IR, then kept only
 * when the library's parser accepts them (a bounded retry for refinements the IR cannot see).
 */
export function validArbitrary(
  adapter: SchemaAdapter,
  at = 'the value',
  reach?: Reach,
): Arbitrary<unknown> {
  const fc = fastCheck()
  const raw = adapter.ir === undefined ? jsonish(fc) : gen(adapter.ir, context(at, reach))
  if (raw === undefined) {
    const fits = reach === undefined ? '' : ' that a request can carry'
    throw optionError(
      'SG_ERR_NO_VALUES',
      `shapeguard: arbitrary(): the schema at ${at} accepts no value${fits}`,
    )
  }
  if (adapter.async) return raw
  return boundedFilter(
    fc,
    raw,
    (v) => libraryAccepts(adapter, v) === true,
    `valid values at ${at}${describeSchema(adapter)}`,
  )
}

/**
 * Near misses of a schema with the path of the broken rule, each rejected by the library; or
 * undefined when the schema accepts everything (`z.unknown()`).
 */
export function missArbitrary(
  adapter: SchemaAdapter,
  at = 'the value',
  reach?: Reach,
): Arbitrary<Miss> | undefined {
  const fc = fastCheck()
  const raw =
    adapter.ir === undefined
      ? fc
          .constantFrom(undefined, null, 42, 'x', [], {})
          .map((value) => ({ value, path: [], deep: true }))
      : miss(adapter.ir, context(at, reach))
  if (raw === undefined || adapter.async) return raw
  return boundedFilter(
    fc,
    raw,
    (m) => libraryAccepts(adapter, m.value) === false,
    `near misses at ${at}${describeSchema(adapter)}`,
  )
}

/** Hostile versions of a schema's valid values (guard cases). */
export function hostileArbitrary(
  adapter: SchemaAdapter,
  at = 'the value',
  reach?: Reach,
): Arbitrary<Hostile> {
  return hostileOf(fastCheck(), validArbitrary(adapter, at, reach))
}

/**
 * A fast-check arbitrary of values for a schema of any library (zod, valibot, yup, an adapter),
 * built from the schema's IR. `valid`: values the library accepts (refinements the IR cannot see
 * are filtered, with a clear error when they reject too much); `invalid`: near misses, one rule
 * broken at a time, each rejected by the library; `hostile`: guard cases (`__proto__` keys,
 * depth, long arrays and strings, control and zero-width characters, repeated query keys).
 * Needs the optional peer `fast-check`.
 * @param options default `{ mode: 'valid' }`
 * @example fc.assert(fc.property(arbitrary(User), (user) => User.safeParse(user).success))
 */
export function arbitrary(schema: Schema, options: ArbitraryOptions = {}): Arbitrary<unknown> {
  checkOptions(options, ['mode'], 'arbitrary()')
  const mode = options.mode ?? 'valid'
  if (!modes.includes(mode)) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `shapeguard: arbitrary(): options.mode must be one of ${modes.join(', ')}`,
    )
  }
  const adapter = toAdapter(schema)
  if (mode === 'valid') return validArbitrary(adapter)
  if (mode === 'hostile') return hostileArbitrary(adapter).map((h) => h.value)
  const misses = missArbitrary(adapter)
  if (misses === undefined) {
    throw optionError(
      'SG_ERR_NO_VALUES',
      'shapeguard: arbitrary(): this schema accepts every value, it has no invalid values',
    )
  }
  return misses.map((m) => m.value)
}
