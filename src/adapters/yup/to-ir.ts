import { REJECT } from '../../engine/compile/builder.js'
import type { ItemBounds } from '../../engine/ir/bounds.js'
import { staticDefault } from '../../engine/ir/defaults.js'
import { readMeta, withMeta } from '../../engine/ir/meta.js'
import { irNode, nativeNode } from '../../engine/ir/nodes.js'
import type { IRBound, IRMeta, IRNode, IRProperty, IRStringCheck } from '../../engine/ir/types.js'
import { hasNoTypeCheck, isNumberCast, stringTransformName } from './function-source.js'
import { arrayTest, numberTest, stringTest } from './tests.js'
import type { YupTest } from './yup-test.js'

/** The parts of a yup 1 schema the converter reads. */
export interface YupLike {
  readonly __isYupSchema__: true
  readonly type: string
  readonly spec: Record<string, any>
  readonly tests: readonly YupTest[]
  readonly transforms: readonly ((this: unknown, ...args: unknown[]) => unknown)[]
  readonly conditions: readonly unknown[]
  readonly deps: readonly string[]
  readonly _whitelist: Iterable<unknown> & { readonly size: number }
  readonly _blacklist: { readonly size: number }
  readonly _typeCheck: (x: unknown) => boolean
  readonly fields?: Record<string, YupLike>
  readonly _nodes?: readonly string[]
  readonly innerType?: YupLike
  validateSync(value: unknown, options?: object): unknown
  cast(value: unknown, options?: object): unknown
}

interface Context {
  /** Inside a strict schema nothing is cast and no default is applied. */
  readonly strict: boolean
  /**
   * yup's `__validating`: set by a root object's validation, it makes object casts skip strict
   * fields. Under any other root (an array) every field is cast, strict or not.
   */
  readonly validating: boolean
  /** yup's `stripUnknown` validate option: casts drop unknown keys of every object. */
  readonly stripUnknown: boolean
}

type Convert = (schema: YupLike, ctx: Context) => IRNode

const node = irNode
const native = nativeNode

const castOptions = {}

/** yup's cast of `raw` by schema `this`: its type's own transform, as `_cast` runs it first. */
function castBy(this: YupLike, raw: unknown): unknown {
  return this.transforms[0]!.call(this, raw, raw, this, castOptions)
}

/**
 * yup's number cast, without its regex for strings. yup casts a string as `s.replace(/\s/g, '')`,
 * '' → NaN, else `+s` (a NaN stays NaN through its parseFloat). `+s` alone ignores only outer
 * whitespace, and a numeral with inner whitespace is NaN to it: so a `+s` that is neither NaN nor
 * 0 ('' and blanks are 0) is yup's answer.
 */
function castNumber(this: YupLike, raw: unknown): unknown {
  if (typeof raw !== 'string') return castBy.call(this, raw)
  const n = +raw
  if (n !== 0 && !Number.isNaN(n)) return n
  const s = raw.replace(whitespace, '')
  return s === '' ? Number.NaN : +s
}

const whitespace = /\s/g

/**
 * The type's own cast, or false in strict mode. It leaves a value of its own type unchanged,
 * which is all the engine needs to skip it there. Bound, not a closure per schema: V8 inlines
 * one function's many bindings, but not many closures of one function.
 */
function castOf(schema: YupLike, ctx: Context): false | ((x: unknown) => unknown) {
  const base = schema.transforms[0]
  if (ctx.strict || !base) return false
  return (isNumberCast(base) ? castNumber : castBy).bind(schema)
}

function stringNode(schema: YupLike, ctx: Context): IRNode {
  const checks: IRStringCheck[] = []
  if (!ctx.strict) {
    // After the type's cast, trim()/lowercase()/uppercase() run on the string, in their order.
    for (const fn of schema.transforms.slice(1)) {
      const name = stringTransformName(fn)
      if (!name) return native('transform')
      const apply = (s: string) => fn.call(schema, s, s, schema, castOptions) as string
      checks.push({ kind: 'transform', name, apply })
    }
  }
  for (const t of schema.tests) {
    const c = stringTest(t, ctx.strict)
    if (c === undefined) return native(t.OPTIONS.name === undefined ? 'refine' : 'check')
    if (c) checks.push(c)
  }
  // yup casts a number or a boolean to a string, which JSON bodies and queries (strings already)
  // hardly ever need: the compiled path takes strings only, leaving the rest to yup, so a string
  // field or item is passed through as it is instead of being run through the cast.
  const casts = !ctx.strict && schema.transforms.length > 0
  return node({
    kind: 'string',
    coerce: false,
    lengthUnit: 'utf16',
    checks,
    ...(casts ? { safety: 'stricter' as const } : {}),
  })
}

function numberNode(schema: YupLike, ctx: Context): IRNode {
  if (!ctx.strict && schema.transforms.length !== 1) return native('transform')
  const s = { integer: false, checks: [] as IRBound<number>[] }
  for (const t of schema.tests) if (!numberTest(t, s)) return native('check')
  const lower = s.checks.some((c) => c.kind === 'gte' || c.kind === 'gt')
  const upper = s.checks.some((c) => c.kind === 'lte' || c.kind === 'lt')
  // yup's number accepts ±Infinity, IR numbers are finite.
  return node({
    kind: 'number',
    coerce: castOf(schema, ctx),
    integer: s.integer,
    checks: s.checks,
    ...(s.integer || (lower && upper) ? {} : { safety: 'stricter' as const }),
  })
}

function booleanNode(schema: YupLike, ctx: Context): IRNode {
  if (schema.tests.length > 0) return native('check')
  if (!ctx.strict && schema.transforms.length !== 1) return native('transform')
  return node({ kind: 'boolean', coerce: castOf(schema, ctx) })
}

function mixedNode(schema: YupLike, _ctx: Context): IRNode {
  const plain = hasNoTypeCheck(schema)
  // `mixed()` rejects null unless nullable, which no IR node but `nullable(unknown)` expresses.
  if (!plain || !schema.spec.nullable || schema.tests.length > 0 || schema.transforms.length > 0)
    return native('mixed')
  return node({ kind: 'unknown' })
}

function hasDefault(schema: YupLike, ctx: Context): boolean {
  if (ctx.strict) return false
  if ('default' in schema.spec) return schema.spec.default !== undefined
  // yup invents an object's default from its fields' defaults.
  return schema.type === 'object' && (schema._nodes?.length ?? 0) > 0
}

function objectNode(schema: YupLike, ctx: Context): IRNode {
  if (schema.transforms.length > 0) return native('transform')
  const names = schema.tests.map((t) => t.OPTIONS.name)
  if (names.some((n) => n !== 'noUnknown' && n !== 'exact')) return native('check')
  const fields = schema.fields ?? {}
  // `_nodes` (yup's field order) is internal: if it is missing or disagrees with `fields`, yup
  // alone decides, rather than compiling an object with no properties that would accept anything.
  const order = schema._nodes
  if (!Array.isArray(order) || order.length !== Object.keys(fields).length) {
    return native('field-order')
  }
  const properties: IRProperty[] = []
  for (const key of order) {
    const field = fields[key]
    if (!field || !('__isYupSchema__' in field) || key === '__proto__') return native('field')
    const inner = {
      ...ctx,
      strict: ctx.strict || (ctx.validating && field.spec.strict === true),
    }
    if (field.spec.strip) return native('strip')
    const value = toIR(field, inner)
    const presence = hasDefault(field, inner)
      ? 'defaulted'
      : field.spec.optional
        ? 'optional'
        : 'required'
    properties.push({ key, value, presence, outputOptional: presence === 'optional' })
  }
  // Casting strips unknown keys under the stripUnknown option or noUnknown()/stripUnknown(), so the
  // noUnknown and exact() tests then hold; in strict mode (no cast) those two reject them.
  const noUnknown = schema.spec.noUnknown === true
  const strip = ctx.stripUnknown || noUnknown
  const unknownKeys = ctx.strict
    ? noUnknown || names.includes('exact')
      ? 'strict'
      : 'catchall'
    : strip
      ? 'strip'
      : names.includes('exact')
        ? 'strict'
        : 'catchall'
  return node({
    kind: 'object',
    properties,
    unknownKeys,
    ...(unknownKeys === 'catchall' ? { catchall: node({ kind: 'unknown' }) } : {}),
    reuseInput: ctx.strict ? 'always' : 'unchanged',
    // yup accepts functions and class instances as objects; the compiled path wants plain ones.
    safety: 'stricter',
  })
}

function arrayNode(schema: YupLike, ctx: Context): IRNode {
  if (schema.transforms.length > 0) return native('transform')
  const len: ItemBounds = {}
  for (const t of schema.tests) if (!arrayTest(t, len)) return native('check')
  const item = schema.innerType ? toIR(schema.innerType, ctx) : node({ kind: 'unknown' })
  return node({ kind: 'array', item, ...len, reuseInput: ctx.strict ? 'always' : 'unchanged' })
}

const table: Record<string, Convert> = {
  string: stringNode,
  number: numberNode,
  boolean: booleanNode,
  mixed: mixedNode,
  object: objectNode,
  array: arrayNode,
  // yup parses dates its own way (ISO 8601 and more): only it decides; the docs show its cast.
  date: (schema, ctx) =>
    native('date', node({ kind: 'date', coerce: castOf(schema, ctx), checks: [] })),
}

/** `oneOf` checks the cast value; requiring the raw input to be one of the values too is stricter. */
function withOneOf(schema: YupLike, base: IRNode): IRNode {
  if (schema._blacklist.size > 0) return native('not-one-of', base)
  if (schema._whitelist.size === 0) return base
  const values = [...schema._whitelist]
  if (
    base.kind === 'native' ||
    !values.every((v) => typeof v === 'string' || typeof v === 'number')
  )
    return native('one-of', base)
  const allowed = node({ kind: 'enum', values: values as (string | number)[] })
  // The cast value is checked (as yup does); the raw input too, so the docs show the values.
  const cast = node({ kind: 'pipe', in: base, out: allowed })
  return node({ kind: 'pipe', in: allowed, out: cast, safety: 'stricter' })
}

function metaOf(schema: YupLike): IRMeta | undefined {
  const { label, meta } = schema.spec
  return readMeta({
    id: meta?.id,
    title: label ?? meta?.title,
    description: meta?.description,
    examples: meta?.examples,
    deprecated: meta?.deprecated,
  })
}

function toIR(schema: YupLike, ctx: Context): IRNode {
  let ir: IRNode
  try {
    const convert = table[schema.type]
    if (!('__isYupSchema__' in schema))
      ir = native('unreadable', undefined, undefined, 'not a yup schema')
    else if (schema.conditions.length > 0 || schema.deps.length > 0) ir = native('when')
    else
      ir = convert
        ? withOneOf(schema, convert(schema, ctx))
        : native('unsupported', undefined, undefined, `yup type ${schema.type}`)
  } catch {
    ir = native('unreadable')
  }
  // null passes through every built-in cast unchanged; undefined takes the default, if any.
  if (schema.spec?.nullable) ir = node({ kind: 'nullable', inner: ir })
  if (hasDefault(schema, ctx)) {
    // As a parent's cast makes it (strict fields kept uncast under a validating root object, an
    // object default's unknown keys stripped under stripUnknown), then validated without casting
    // again, as yup validates nested values.
    const castOptions = {
      assert: false,
      __validating: ctx.validating,
      ...(ctx.stripUnknown ? { stripUnknown: true } : {}),
    }
    const get = () => {
      try {
        const value = schema.cast(undefined, castOptions)
        return schema.validateSync(value, { strict: true, abortEarly: true })
      } catch {
        throw REJECT
      }
    }
    ir = node({ kind: 'default', inner: ir, value: staticDefault(() => schema.spec.default), get })
  } else if (schema.spec?.optional) ir = node({ kind: 'optional', inner: ir })
  return withMeta(ir, metaOf(schema))
}

/**
 * Translates a yup 1 schema into the IR, reproducing yup's casting (its own transforms), defaults
 * and object output; conditions, refs, custom tests and transforms become `native` nodes.
 * @param stripUnknown default false: true reproduces yup's `stripUnknown: true` validate option.
 * @example yupToIR(object({ name: string().required() })) // → { kind: 'object', … }
 */
export function yupToIR(schema: YupLike, stripUnknown = false): IRNode {
  return toIR(schema, {
    strict: schema.spec?.strict === true,
    validating: schema.type === 'object',
    stripUnknown,
  })
}
