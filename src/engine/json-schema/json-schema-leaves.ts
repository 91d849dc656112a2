import type { IRBound, IRNumber, IRString, IRStringCheck } from '../ir/types.js'
import { escapeRegex } from '../regex/escape-regex.js'
import type { JsonSchema } from './json-schema-types.js'

// The leaves of the JSON Schema writer: string formats and patterns, number formats, nullability.

const formats: Record<string, JsonSchema> = {
  email: { format: 'email' },
  uuid: { format: 'uuid' },
  guid: { format: 'uuid' },
  url: { format: 'uri' },
  datetime: { format: 'date-time' },
  iso_timestamp: { format: 'date-time' },
  date: { format: 'date' },
  iso_date: { format: 'date' },
  time: { format: 'time' },
  duration: { format: 'duration' },
  ipv4: { format: 'ipv4' },
  ipv6: { format: 'ipv6' },
  cidrv4: { format: 'cidr' },
  cidrv6: { format: 'cidr' },
  base64: { format: 'byte', contentEncoding: 'base64' },
  base64url: { contentEncoding: 'base64url' },
  jwt: { pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*$' },
}

const numberFormats: Record<string, string> = {
  int32: 'int32',
  float32: 'float',
  float64: 'double',
}

/**
 * A RegExp's source as a `pattern`, or undefined to leave it out of the docs (a looser documented
 * schema, never a wrong one). JSON Schema patterns carry no flags and are compiled with `u`, so the
 * source is kept only when its flags are a subset of `g y d u` (the engine resets `lastIndex`
 * before each `test`, so `g`/`y` still test from index 0 and match the same strings, `d` only adds
 * indices) and it compiles under `u`. A regex without `u` whose source uses `\u{…}`, `\p{…}` or
 * surrogates means something else under `u`, so it is left out too. What remains can differ only
 * on strings with characters outside the BMP (`.` or a negated class counts one there, two without
 * `u`).
 */
function regexPattern(re: RegExp): string | undefined {
  if (![...re.flags].every((f) => 'gydu'.includes(f))) return undefined
  try {
    new RegExp(re.source, 'u')
  } catch {
    return undefined
  }
  if (!re.unicode && /\\[uUpP]\{|\\u[dD][89a-fA-F]|[\uD800-\uDFFF]/.test(re.source))
    return undefined
  return re.source
}

/**
 * The tightest length bounds of a string's checks (`length` is both): undefined where none is set.
 * The validator and the docs both take the bounds from here.
 */
export function lengthBounds(checks: readonly IRStringCheck[]): {
  min: number | undefined
  max: number | undefined
} {
  let min: number | undefined
  let max: number | undefined
  for (const c of checks) {
    if (c.kind === 'min_length' || c.kind === 'length') min = Math.max(min ?? 0, c.value)
    if (c.kind === 'max_length' || c.kind === 'length') max = Math.min(max ?? Infinity, c.value)
  }
  return { min, max }
}

/**
 * A number's bounds as JSON Schema keywords, for the validator and the docs alike: the tightest
 * of each bound kind, and every `multipleOf` step (one as `multipleOf`, several under `allOf`,
 * since each must hold and no single step expresses them all).
 */
export function numberKeywords(checks: readonly IRBound<number>[]): JsonSchema {
  const s: JsonSchema = {}
  const pick = (
    kind: IRBound<number>['kind'],
    key: string,
    f: (a: number, b: number) => number,
  ) => {
    const values = checks.filter((c) => c.kind === kind).map((c) => c.value)
    if (values.length > 0) s[key] = values.reduce((a, b) => f(a, b))
  }
  pick('gte', 'minimum', Math.max)
  pick('gt', 'exclusiveMinimum', Math.max)
  pick('lte', 'maximum', Math.min)
  pick('lt', 'exclusiveMaximum', Math.min)
  const steps = checks.filter((c) => c.kind === 'multiple_of').map((c) => c.value)
  if (steps.length === 1) s.multipleOf = steps[0]
  if (steps.length > 1) s.allOf = steps.map((m) => ({ multipleOf: m }))
  return s
}

export function numberSchema(node: IRNumber): JsonSchema {
  const s: JsonSchema = { type: node.integer ? 'integer' : 'number' }
  const f = node.format && numberFormats[node.format]
  if (f) s.format = f
  return { ...s, ...numberKeywords(node.checks) }
}

/**
 * The checks that hold on the value a mode sees: in input mode those before the first
 * value-changing step (trim, toLowerCase, …) and minimum lengths after trims, in output mode those
 * after the last one.
 */
function checksSeen(node: IRString, io: 'input' | 'output'): readonly IRStringCheck[] {
  const steps = node.checks.map((c) => c.kind === 'transform')
  const first = steps.indexOf(true)
  if (first === -1) return node.checks
  if (io === 'output') return node.checks.slice(steps.lastIndexOf(true) + 1)
  // A minimum length after trimming holds on the input too: trimming never lengthens a string.
  const out: IRStringCheck[] = node.checks.slice(0, first)
  for (const c of node.checks.slice(first)) {
    if (c.kind === 'transform' && !/^trim/i.test(c.name)) break
    if (c.kind === 'min_length' || c.kind === 'length')
      out.push({ kind: 'min_length', value: c.value })
  }
  return out
}

export function stringSchema(node: IRString, io: 'input' | 'output' = 'output'): JsonSchema {
  const s: JsonSchema = { type: 'string' }
  const patterns: string[] = []
  const checks = checksSeen(node, io)
  const { min, max } = lengthBounds(checks)
  // Lengths are documented as written, though JSON Schema counts code points and valibot and yup
  // UTF-16 units: they differ only on characters outside the BMP (as patterns may, see above).
  if (min !== undefined) s.minLength = min
  if (max !== undefined) s.maxLength = max
  for (const c of checks) {
    if (c.kind !== 'pattern' && c.kind !== 'format') continue
    const known = formats[c.format]
    if (known) {
      if (known.pattern) patterns.push(String(known.pattern))
      Object.assign(s, { ...known, pattern: undefined })
    } else if (c.kind === 'pattern') {
      const a = c.affix ?? ''
      if (c.format === 'starts_with') patterns.push(`^${escapeRegex(a)}`)
      else if (c.format === 'ends_with') patterns.push(`${escapeRegex(a)}$`)
      else if (c.format === 'includes') patterns.push(escapeRegex(a))
      else {
        const source = regexPattern(c.pattern)
        if (source !== undefined) patterns.push(source)
      }
    }
  }
  if (s.pattern === undefined) delete s.pattern
  if (patterns.length > 0) s.pattern = patterns[0]
  if (patterns.length > 1) s.allOf = patterns.slice(1).map((pattern) => ({ pattern }))
  return s
}

/**
 * The values of a literal or enum: one value is both `const` and a one-value `enum` (a tool may
 * read either), several an `enum`, typed when they share a type.
 */
export function enumSchema(values: readonly unknown[]): JsonSchema {
  const json = values.filter((v) => v !== undefined).map(jsonValue)
  if (json.length === 1) return { const: json[0], enum: json }
  const types = new Set(json.map((v) => (v === null ? 'null' : typeof v)))
  const only = types.size === 1 ? [...types][0] : undefined
  return only === 'string' || only === 'number' || only === 'boolean'
    ? { type: only, enum: json }
    : { enum: json }
}

export function jsonValue(v: unknown): unknown {
  return typeof v === 'bigint' ? Number(v) : v
}

export function withNull(s: JsonSchema): JsonSchema {
  const type = s.type
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return s
  if (Array.isArray(type) && s.$ref === undefined && s.anyOf === undefined && s.enum === undefined)
    return { ...s, type: [...type, 'null'] }
  // A literal (`const`, with or without its one-value `enum`): one value or null.
  if ('const' in s && Object.keys(s).every((k) => k === 'const' || k === 'enum'))
    return { enum: [s.const, null] }
  if (typeof s.type === 'string' && s.$ref === undefined && s.anyOf === undefined) {
    const out: JsonSchema = { ...s, type: [s.type, 'null'] }
    if (Array.isArray(s.enum)) out.enum = [...s.enum, null]
    if ('const' in s) {
      delete out.const
      out.enum = [s.const, null]
    }
    return out
  }
  return { anyOf: [s, { type: 'null' }] }
}
