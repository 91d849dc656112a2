import { type ItemBounds, narrowItems } from '../../engine/ir/bounds.js'
import type { IRBound, IRStringCheck } from '../../engine/ir/types.js'
import { escapeRegex } from '../../engine/regex/escape-regex.js'

/** A valibot pipe item (schema, validation, transformation or metadata) as the converter reads it. */
export interface ValibotItem {
  readonly kind: 'schema' | 'validation' | 'transformation' | 'metadata'
  readonly type: string
  readonly async: boolean
  readonly requirement?: unknown
  readonly '~run': (
    dataset: { value: unknown; typed?: boolean },
    config: object,
  ) => {
    value: unknown
    issues?: unknown[]
  }
  readonly [key: string]: any
}

// Validations whose whole check is `requirement.test(value)` with valibot's own RegExp.
const regexActions = new Set([
  'regex',
  'email',
  'rfc_email',
  'uuid',
  'ulid',
  'nanoid',
  'cuid2',
  'ksuid',
  'emoji',
  'hexadecimal',
  'hex_color',
  'octal',
  'decimal',
  'digits',
  'slug',
  'base64',
  'bic',
  'domain',
  'hash',
  'isrc',
  'jws_compact',
  'ip',
  'ipv4',
  'ipv6',
  'mac',
  'mac48',
  'mac64',
  'iso_date',
  'iso_date_time',
  'iso_date_time_second',
  'iso_time',
  'iso_time_second',
  'iso_timestamp',
  'iso_week',
])

// Library validations (no user function) that are run as they are, in isolation, on the string.
const runnableActions = new Set([
  'url',
  'credit_card',
  'imei',
  'isbn',
  'bytes',
  'min_bytes',
  'max_bytes',
  'not_bytes',
  'graphemes',
  'min_graphemes',
  'max_graphemes',
  'not_graphemes',
  'words',
  'min_words',
  'max_words',
  'not_words',
  'code_points',
  'min_code_points',
  'max_code_points',
  'not_code_points',
  'not_length',
  'empty',
  'value',
  'values',
  'not_value',
  'not_values',
  'min_value',
  'max_value',
  'gt_value',
  'lt_value',
  'excludes',
])

const stringMethods: Record<string, (s: string) => string> = {
  trim: (s) => s.trim(),
  trim_start: (s) => s.trimStart(),
  trim_end: (s) => s.trimEnd(),
  to_lower_case: (s) => s.toLowerCase(),
  to_upper_case: (s) => s.toUpperCase(),
}

/** Runs one valibot action on its own: the (possibly changed) string, or undefined on an issue. */
function runAction(action: ValibotItem): (s: string) => string | undefined {
  const config = {}
  return (s) => {
    const d = action['~run']({ value: s, typed: true }, config)
    return d.issues || typeof d.value !== 'string' ? undefined : d.value
  }
}

/** Translates a pipe action on a string (UTF-16 lengths, as valibot counts); undefined: native. */
export function stringAction(a: ValibotItem): IRStringCheck | undefined {
  const r = a.requirement
  if (a.kind === 'transformation') {
    const apply = stringMethods[a.type]
    return apply ? { kind: 'transform', name: a.type, apply } : undefined
  }
  if (a.kind !== 'validation' || a.async) return undefined
  switch (a.type) {
    case 'min_length':
      return { kind: 'min_length', value: r as number }
    case 'max_length':
      return { kind: 'max_length', value: r as number }
    case 'length':
      return { kind: 'length', value: r as number }
    case 'non_empty':
      return { kind: 'min_length', value: 1 }
    case 'starts_with':
    case 'ends_with':
    case 'includes': {
      const text = escapeRegex(String(r))
      const source =
        a.type === 'starts_with' ? `^${text}` : a.type === 'ends_with' ? `${text}$` : text
      return { kind: 'pattern', pattern: new RegExp(source), format: a.type, affix: String(r) }
    }
  }
  if (regexActions.has(a.type) && r instanceof RegExp) {
    // valibot never resets lastIndex: a global or sticky regex is stateful, only valibot runs it.
    if (r.global || r.sticky) return undefined
    return { kind: 'pattern', pattern: r, format: a.type }
  }
  if (runnableActions.has(a.type)) return { kind: 'format', format: a.type, run: runAction(a) }
  return undefined
}

/** Number state a pipe builds up: integer flag and bounds. */
export interface NumberState {
  integer: boolean
  finite?: boolean
  format?: string
  readonly checks: IRBound<number>[]
}

const boundKinds: Record<string, IRBound<number>['kind']> = {
  min_value: 'gte',
  gt_value: 'gt',
  max_value: 'lte',
  lt_value: 'lt',
}

/** Applies a pipe action to a number's state; false when only valibot can run it. */
export function numberAction(a: ValibotItem, s: NumberState): boolean {
  if (a.kind !== 'validation' || a.async) return false
  const r = a.requirement
  const bound = boundKinds[a.type]
  if (bound) {
    if (typeof r !== 'number' || Number.isNaN(r)) return false
    s.checks.push({ kind: bound, value: r })
    return true
  }
  switch (a.type) {
    case 'integer':
      s.integer = true
      return true
    case 'safe_integer':
      s.integer = true
      s.format ??= 'safeint'
      s.checks.push(
        { kind: 'gte', value: Number.MIN_SAFE_INTEGER },
        { kind: 'lte', value: Number.MAX_SAFE_INTEGER },
      )
      return true
    case 'finite':
      // IR numbers are finite: the action only makes the node exact (see numberNode).
      s.finite = true
      return true
    // valibot tests `value % m != 0` on floats, which no IR bound reproduces exactly: native.
    default:
      return false
  }
}

/** Applies a pipe action to a date's or bigint's bounds; false when only valibot can run it. */
export function boundAction<V>(a: ValibotItem, checks: IRBound<V>[], date: boolean): boolean {
  const bound = boundKinds[a.type]
  if (a.kind !== 'validation' || a.async || !bound) return false
  const r = a.requirement
  if (date) {
    if (!(r instanceof Date) || Number.isNaN(r.getTime())) return false
    checks.push({ kind: bound, value: r.getTime() as V })
    return true
  }
  if (typeof r !== 'bigint') return false
  checks.push({ kind: bound, value: r as V })
  return true
}

/** Applies a pipe action to an array's length bounds; false when only valibot can run it. */
export function arrayAction(a: ValibotItem, len: ItemBounds): boolean {
  if (a.kind !== 'validation' || a.async) return false
  const r = a.requirement as number
  if (a.type === 'min_length') narrowItems(len, r, undefined)
  else if (a.type === 'max_length') narrowItems(len, undefined, r)
  else if (a.type === 'length') narrowItems(len, r, r)
  else if (a.type === 'non_empty') narrowItems(len, 1, undefined)
  else return false
  return true
}
