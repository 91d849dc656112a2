import type { Arbitrary } from 'fast-check'
import { isObject } from '../../shared/is-object.js'
import type { FC } from '../load-fast-check.js'

/** The guard case a hostile value carries. */
export type HostileKind =
  | 'proto-key'
  | 'constructor-key'
  | 'deep'
  | 'long-array'
  | 'long-string'
  | 'control-chars'
  | 'repeated-key'

/** A valid value turned hostile in one way. */
export interface Hostile {
  readonly value: unknown
  readonly kind: HostileKind
}

/** One past each default guard limit (maxDepth 20, maxArrayLength 1000, maxStringLength 10000). */
export const HOSTILE_SIZES = Object.freeze({ depth: 22, arrayLength: 1001, stringLength: 10001 })

/** Control, zero-width, bidi and line-breaking characters. */
const oddChars = [
  '\u0000',
  '\u0007',
  '\u001b',
  '\u007f',
  '\u200b',
  '\u200d',
  '\u202e',
  '\ufeff',
  '\r\n',
  '\u2028',
]

// A value with fields to edit: a Date or a Set (which arbitraries make) has none.
const hasFields = (x: unknown): x is Record<string, unknown> =>
  isObject(x) && !(x instanceof Date) && !(x instanceof Set)

/** An own `__proto__` key, as JSON.parse makes one (an assignment would set the prototype). */
function withProtoKey(value: unknown): unknown {
  let own = ''
  try {
    if (hasFields(value)) own = JSON.stringify(value).slice(1, -1)
  } catch {
    // A bigint cannot be written as JSON: the proto key alone.
  }
  return JSON.parse(`{"__proto__":{"polluted":"yes"}${own ? `,${own}` : ''}}`)
}

function nest(value: unknown, levels: number): unknown {
  let out = value
  for (let i = 0; i < levels; i++) out = i % 2 === 0 ? { nested: out } : [out]
  return out
}

/** The first key whose value satisfies `test`, else undefined. */
const keyWhere = (o: Record<string, unknown>, test: (v: unknown) => boolean) =>
  Object.keys(o).find((k) => test(o[k]))

function longArray(value: unknown): unknown {
  const fill = (first: unknown) =>
    Array.from({ length: HOSTILE_SIZES.arrayLength }, () => first ?? 0)
  if (Array.isArray(value)) return fill(value[0])
  if (hasFields(value)) {
    const key = keyWhere(value, Array.isArray) ?? Object.keys(value)[0] ?? 'items'
    const current = value[key]
    return { ...value, [key]: fill(Array.isArray(current) ? current[0] : current) }
  }
  return fill(value)
}

function longString(value: unknown): unknown {
  const long = 'a'.repeat(HOSTILE_SIZES.stringLength)
  if (hasFields(value)) {
    const key = keyWhere(value, (v) => typeof v === 'string') ?? Object.keys(value)[0] ?? 'text'
    return { ...value, [key]: long }
  }
  return long
}

/** Every string in a value (and every key) with one odd character added. */
function withChar(value: unknown, c: string): unknown {
  if (typeof value === 'string') return `${value.slice(0, 1)}${c}${value.slice(1)}`
  if (Array.isArray(value)) return value.map((v) => withChar(v, c))
  if (!hasFields(value)) return value
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withChar(v, c)]))
}

/** A scalar property turned into an array of two: a repeated key in a query string. */
function repeated(value: unknown): unknown {
  if (!hasFields(value)) return [value, value]
  const key = keyWhere(value, (v) => v !== null && typeof v !== 'object') ?? Object.keys(value)[0]
  return key === undefined ? { page: ['1', '2'] } : { ...value, [key]: [value[key], value[key]] }
}

/**
 * Hostile versions of valid values: the cases the pre-parse guards exist for (an own `__proto__`
 * or `constructor` key, nesting past the depth limit, arrays and strings past the length limits,
 * control and zero-width characters, a repeated query key).
 */
export function hostileOf(fc: FC, valid: Arbitrary<unknown>): Arbitrary<Hostile> {
  const as = (kind: HostileKind, f: (v: unknown) => unknown) =>
    valid.map((v): Hostile => ({ value: f(v), kind }))
  return fc.oneof(
    as('proto-key', withProtoKey),
    as('constructor-key', (v) => ({
      ...(hasFields(v) ? v : {}),
      constructor: { prototype: { polluted: 'yes' } },
    })),
    as('deep', (v) => nest(v, HOSTILE_SIZES.depth)),
    as('long-array', longArray),
    as('long-string', longString),
    fc
      .tuple(valid, fc.constantFrom(...oddChars))
      .map(([v, c]): Hostile => ({ value: withChar(v, c), kind: 'control-chars' })),
    as('repeated-key', repeated),
  )
}
