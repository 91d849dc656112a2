import { isObject } from '../../shared/is-object.js'
import {
  entries,
  type Json,
  own,
  ownArray,
  ownNumber,
  ownObject,
  ownString,
  setOwn,
} from './document.js'
import { mayMatch } from './quick-match.js'
import { numberSample, stringSample } from './scalar-sample.js'
import { type Flat, flatten, maxWork, mergeInto, type SampleContext } from './schema-merge.js'

// An example value for a JSON Schema (OpenAPI 3.0 or 3.1 dialect) that the schema accepts. The
// schema is untrusted: `$ref` cycles end (an optional property or an empty array stands in for
// the recursion), depth and total work are bounded, and patterns are never executed.

const NONE: unique symbol = Symbol('none')
type Sample = unknown

const maxDepth = 24
const optionalDepth = 6
const maxItems = 100
const maxBranches = 32

const objectWords = [
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'minProperties',
]
const arrayWords = ['items', 'prefixItems', 'minItems', 'maxItems', 'contains', 'uniqueItems']
const stringWords = ['minLength', 'maxLength', 'pattern', 'format', 'contentEncoding']
const numberWords = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']

/**
 * An example value that `schema` accepts, built from its examples, defaults, enums and
 * constraints; `undefined` when none can be made (`not: {}`, an unavoidable cycle).
 */
export function sampleSchema(doc: unknown, schema: unknown): unknown {
  const ctx: SampleContext = { doc, refs: [], work: 0 }
  const value = sample(schema, ctx, 0, 0)
  return value === NONE ? undefined : value
}

function sample(schema: unknown, ctx: SampleContext, depth: number, variant: number): Sample {
  if (depth > maxDepth) return NONE
  const followed: string[] = []
  const flat = flatten(schema, ctx, followed)
  if (flat === 'never' || flat === 'cycle') return NONE
  ctx.refs.push(...followed)
  try {
    return sampleFlat(flat, ctx, depth, variant)
  } finally {
    ctx.refs.length -= followed.length
  }
}

function typesOf(flat: Json): string[] {
  const type = own(flat, 'type')
  if (typeof type === 'string') return [type]
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string')
  const has = (words: string[]) => words.some((w) => Object.hasOwn(flat, w))
  if (has(objectWords)) return ['object']
  if (has(arrayWords)) return ['array']
  if (has(stringWords)) return ['string']
  if (has(numberWords)) return ['number']
  return ['any']
}

function givenExample(flat: Json, ctx: SampleContext): Sample {
  const candidates: unknown[] = []
  const examples = own(flat, 'examples')
  if (Array.isArray(examples) && examples.length > 0) candidates.push(examples[0])
  if (Object.hasOwn(flat, 'example')) candidates.push(flat.example)
  if (Object.hasOwn(flat, 'default')) candidates.push(flat.default)
  for (const value of candidates) {
    if (value !== undefined && mayMatch(flat, value, ctx)) return value
  }
  return NONE
}

function sampleFlat(flat: Json, ctx: SampleContext, depth: number, variant: number): Sample {
  if (variant === 0) {
    const given = givenExample(flat, ctx)
    if (given !== NONE) return given
  }
  if (Object.hasOwn(flat, 'const')) return flat.const
  const enumValues = own(flat, 'enum')
  if (Array.isArray(enumValues)) {
    const usable = enumValues.filter((v) => v !== null && mayMatch(flat, v, ctx))
    const pool = usable.length > 0 ? usable : enumValues
    return pool.length === 0 ? NONE : pool[variant % pool.length]
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (ownArray(flat, key).length > 0) return sampleBranches(flat, key, ctx, depth, variant)
  }
  const types = typesOf(flat)
  const type = types.find((t) => t !== 'null') ?? types[0]
  switch (type) {
    case undefined:
      return NONE
    case 'null':
      return null
    case 'boolean':
      return variant % 2 === 0
    case 'integer':
      return numberSample(flat, true, variant)
    case 'number':
      return numberSample(flat, false, variant)
    case 'string':
      return stringSample(flat, variant)
    case 'array':
      return sampleArray(flat, ctx, depth, variant)
    case 'object':
      return sampleObject(flat, ctx, depth, variant)
    default:
      return {}
  }
}

// The discriminator's value names the branch (its mapping key, else the schema's name), unless
// the branch's own schema already fixes that property (an enum or const) to something else.
function discriminate(flat: Json, branch: unknown, value: Sample, ctx: SampleContext): Sample {
  const discriminator = ownObject(flat, 'discriminator')
  const property = ownString(discriminator, 'propertyName')
  const ref = ownString(branch, '$ref')
  if (property === undefined || ref === undefined || !isObject(value)) return value
  let tag = ref.slice(ref.lastIndexOf('/') + 1)
  for (const [key, target] of entries(own(discriminator, 'mapping'))) {
    if (target === ref) tag = key
  }
  const out: Json = {}
  for (const [key, v] of entries(value)) setOwn(out, key, v)
  setOwn(out, property, tag)
  return mayMatch(branch, out, ctx) ? out : value
}

// oneOf: the first branch whose example no other branch accepts (else the first that works);
// anyOf: the first branch that gives an example.
function sampleBranches(
  flat: Json,
  key: 'oneOf' | 'anyOf',
  ctx: SampleContext,
  depth: number,
  variant: number,
): Sample {
  const branches = ownArray(flat, key).slice(0, maxBranches)
  const base: Json = {}
  for (const [k, v] of entries(flat)) if (k !== key) setOwn(base, k, v)
  let fallback: Sample = NONE
  for (const [index, branch] of branches.entries()) {
    const followed: string[] = []
    const part: Flat = flatten(branch, ctx, followed)
    if (typeof part === 'string') continue
    ctx.refs.push(...followed)
    let value: Sample
    try {
      value = sampleFlat(mergeInto(base, part), ctx, depth + 1, variant)
    } finally {
      ctx.refs.length -= followed.length
    }
    if (value === NONE) continue
    value = discriminate(flat, branch, value, ctx)
    if (key === 'anyOf') return value
    const clash = branches.some((other, j) => j !== index && mayMatch(other, value, ctx))
    if (!clash) return value
    if (fallback === NONE) fallback = value
  }
  return fallback
}

function isReadOnly(schema: unknown, ctx: SampleContext): boolean {
  const flat = flatten(schema, ctx, [])
  return typeof flat !== 'string' && own(flat, 'readOnly') === true
}

function sampleObject(flat: Json, ctx: SampleContext, depth: number, variant: number): Sample {
  const props = ownObject(flat, 'properties') ?? {}
  const required = new Set(ownArray(flat, 'required').filter((n) => typeof n === 'string'))
  const maxProps = ownNumber(flat, 'maxProperties') ?? Number.POSITIVE_INFINITY
  const optional = depth < optionalDepth && ctx.work < maxWork / 4
  const out: Json = {}
  let count = 0
  let requiredLeft = [...required].filter((n) => Object.hasOwn(props, n)).length
  for (const [name, schema] of entries(props)) {
    const isRequired = required.has(name)
    if (isRequired) requiredLeft--
    else if (!optional || count + requiredLeft >= maxProps || isReadOnly(schema, ctx)) continue
    const value = sample(schema, ctx, depth + 1, variant)
    if (value === NONE) {
      if (isRequired) return NONE
      continue
    }
    setOwn(out, name, value)
    count++
  }
  const extra = own(flat, 'additionalProperties')
  for (const name of required) {
    if (Object.hasOwn(out, name)) continue
    const value = sample(isObject(extra) ? extra : {}, ctx, depth + 1, 0)
    if (value === NONE) return NONE
    setOwn(out, name, value)
    count++
  }
  const minProps = Math.min(ownNumber(flat, 'minProperties') ?? 0, maxItems)
  for (let n = 1; count < minProps && extra !== false && n <= maxItems; n++) {
    const name = `property${n}`
    if (Object.hasOwn(out, name)) continue
    const value = sample(isObject(extra) ? extra : {}, ctx, depth + 1, n)
    if (value === NONE) return NONE
    setOwn(out, name, value)
    count++
  }
  return out
}

function sampleArray(flat: Json, ctx: SampleContext, depth: number, variant: number): Sample {
  const rawItems = own(flat, 'items')
  // OpenAPI 3.0 has no prefixItems; an `items` array there is the old tuple form.
  const prefix = Array.isArray(rawItems) ? rawItems : ownArray(flat, 'prefixItems')
  const items = Array.isArray(rawItems) ? own(flat, 'additionalItems') : rawItems
  const min = Math.min(ownNumber(flat, 'minItems') ?? 0, maxItems)
  const max = ownNumber(flat, 'maxItems') ?? Number.POSITIVE_INFINITY
  const unique = own(flat, 'uniqueItems') === true
  const out: unknown[] = []
  for (const schema of prefix.slice(0, maxItems)) {
    if (out.length >= max) break
    const value = sample(schema, ctx, depth + 1, unique ? out.length : variant)
    if (value === NONE) {
      if (out.length < min) return NONE
      break
    }
    out.push(value)
  }
  const itemSchema = items ?? own(flat, 'contains')
  const wanted = Math.min(
    Math.max(min, prefix.length === 0 && itemSchema !== undefined ? 1 : 0),
    max,
  )
  while (out.length < wanted && items !== false) {
    const value = sample(itemSchema ?? {}, ctx, depth + 1, unique ? out.length : variant)
    if (value === NONE) break
    out.push(value)
  }
  return out.length < min ? NONE : out
}
