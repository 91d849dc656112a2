import type { IRBound, IRStringCheck } from '../../engine/ir/types.js'
import { escapeRegex } from '../../engine/regex/escape-regex.js'
import { transformName } from './function-source.js'

/** The parts of a zod check or schema instance the converter reads. */
export interface ZodCheckLike {
  readonly _zod: {
    readonly def: Record<string, any>
    readonly check?: (payload: { value: unknown; issues: unknown[] }) => unknown
  }
}

// Formats whose whole check is `def.pattern.test(value)`: zod's own RegExp reproduces them.
const patternFormats = new Set([
  'regex',
  'guid',
  'uuid',
  'email',
  'emoji',
  'nanoid',
  'cuid',
  'cuid2',
  'ulid',
  'xid',
  'ksuid',
  'datetime',
  'date',
  'time',
  'duration',
  'ipv4',
  'mac',
  'cidrv4',
  'e164',
  'lowercase',
  'uppercase',
  'starts_with',
  'ends_with',
  'includes',
])

/** Runs a zod check on its own: the (possibly normalised) value, or undefined when it fails. */
function runCheck(check: ZodCheckLike): (s: string) => string | undefined {
  const fn = check._zod.check!
  return (s) => {
    const payload = { value: s as unknown, issues: [] as unknown[] }
    const r = fn(payload)
    if (r instanceof Promise || payload.issues.length > 0) return undefined
    return typeof payload.value === 'string' ? payload.value : undefined
  }
}

/** Translates one zod string check; undefined when only zod can run it. */
export function stringCheck(check: ZodCheckLike): IRStringCheck | undefined {
  const d = check._zod.def
  switch (d.check) {
    case 'min_length':
      return { kind: 'min_length', value: d.minimum }
    case 'max_length':
      return { kind: 'max_length', value: d.maximum }
    case 'length_equals':
      return { kind: 'length', value: d.length }
    case 'overwrite':
      return { kind: 'transform', name: transformName(d.tx), apply: d.tx }
    case 'string_format': {
      if (d.when) return undefined
      if (patternFormats.has(d.format) && d.pattern instanceof RegExp) {
        const affix = d.prefix ?? d.suffix ?? d.includes
        return {
          kind: 'pattern',
          // zod's `.*suffix$` retries its `.*` from every start (quadratic); `suffix$` is the
          // same language, found in linear time.
          pattern: d.format === 'ends_with' ? new RegExp(`${escapeRegex(d.suffix)}$`) : d.pattern,
          format: d.format,
          ...(typeof affix === 'string' ? { affix } : {}),
        }
      }
      return typeof check._zod.check === 'function'
        ? { kind: 'format', format: d.format, run: runCheck(check) }
        : undefined
    }
    default:
      return undefined
  }
}

const numberFormats: Record<string, [number, number]> = {
  safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
  float32: [-3.4028234663852886e38, 3.4028234663852886e38],
}

const bigintFormats: Record<string, [bigint, bigint]> = {
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
}

/** Translates a bound check on a number, bigint or date (dates to epoch ms). */
export function boundCheck<V>(check: ZodCheckLike, out: IRBound<V>[]): boolean {
  const d = check._zod.def
  const value = d.value instanceof Date ? d.value.getTime() : d.value
  // A NaN bound (min(NaN), an Invalid Date) compares false both ways: zod decides it natively.
  if (d.when || (typeof value === 'number' && Number.isNaN(value))) return false
  if (d.check === 'greater_than') out.push({ kind: d.inclusive ? 'gte' : 'gt', value })
  else if (d.check === 'less_than') out.push({ kind: d.inclusive ? 'lte' : 'lt', value })
  else if (d.check === 'multiple_of') out.push({ kind: 'multiple_of', value })
  else if (d.check === 'number_format' || d.check === 'bigint_format') {
    const range = (d.check === 'number_format' ? numberFormats : bigintFormats)[d.format]
    if (range)
      out.push({ kind: 'gte', value: range[0] as V }, { kind: 'lte', value: range[1] as V })
  } else return false
  return true
}
