import { REJECT } from '../../engine/compile/builder.js'
import { staticDefault } from '../../engine/ir/defaults.js'
import { readMeta, withMeta } from '../../engine/ir/meta.js'
import { Recursion } from '../../engine/ir/recursion.js'
import { simpleKinds } from '../../engine/ir/simple-kinds.js'
import type { IRNode, IRProperty } from '../../engine/ir/types.js'
import { children, each, type Visitor, visitSome } from '../../engine/ir/visit.js'
import type { ValibotItem } from './actions.js'
import { applyActions } from './apply-actions.js'
import { native, node, numberNode, stringNode } from './nodes.js'

/** The parts of a valibot schema the converter reads (plain objects, `{kind: 'schema', type, …}`). */
export interface ValibotLike extends ValibotItem {
  readonly kind: 'schema'
  readonly pipe?: readonly ValibotItem[]
}

type Context = Recursion<ValibotLike>

type Convert = (schema: ValibotLike, ctx: Context) => IRNode

// valibot copies no unknown key named like these (its `_isValidObjectKey`).
const ignoredKeys = ['constructor', 'prototype']

const config = {}

/**
 * A default as valibot produces it: the wrapper runs on the missing value, so the default is
 * computed (a function is called) and then parsed by the wrapped schema. A default valibot
 * rejects sends the whole value to valibot (REJECT).
 */
function defaulted(
  schema: ValibotLike,
  on: 'undefined' | 'null' | 'nullish',
  ctx: Context,
): IRNode {
  const missing = on === 'null' ? null : undefined
  const get = () => {
    const d = schema['~run']({ value: missing }, config)
    if (d.issues) throw REJECT
    return d.value
  }
  return node({
    kind: 'default',
    on,
    inner: toIR(schema.wrapped, ctx),
    value: staticDefault(() => schema.default),
    get,
  })
}

function presenceOf(el: ValibotLike, ctx: Context): Omit<IRProperty, 'key'> {
  const hasDefault = el.default !== undefined
  if (el.type === 'optional' || el.type === 'nullish') {
    if (hasDefault) return { value: toIR(el, ctx), presence: 'defaulted', outputOptional: false }
    return { value: toIR(el, ctx), presence: 'optional', outputOptional: true }
  }
  return { value: toIR(el, ctx), presence: 'required', outputOptional: false }
}

type Mode = 'strip' | 'strict' | 'loose' | 'rest'

/** What extra keys or items may hold: anything (loose), the `rest` schema, or nothing. */
function restOf(mode: Mode, schema: ValibotLike, ctx: Context): IRNode | undefined {
  if (mode === 'loose') return node({ kind: 'unknown' })
  return mode === 'rest' ? toIR(schema.rest, ctx) : undefined
}

const objectOf =
  (mode: Mode): Convert =>
  (schema, ctx) => {
    const entries = schema.entries as Record<string, ValibotLike>
    const properties: IRProperty[] = []
    for (const key of Object.keys(entries)) {
      if (key === '__proto__') return native('property-presence')
      properties.push({ key, ...presenceOf(entries[key]!, ctx) })
    }
    const catchall = restOf(mode, schema, ctx)
    // valibot accepts any object (arrays, dates) where the compiled check wants a plain one.
    return node({
      kind: 'object',
      properties,
      unknownKeys: mode === 'strict' ? 'strict' : catchall ? 'catchall' : 'strip',
      ...(catchall ? { catchall, ignoredKeys, ownKeysOnly: true } : {}),
      safety: 'stricter',
    })
  }

const tupleOf =
  (mode: Mode): Convert =>
  (schema, ctx) => {
    const items = (schema.items as ValibotLike[]).map((i) => toIR(i, ctx))
    const rest = restOf(mode, schema, ctx)
    // A plain `tuple` drops extra items, which the compiled check rejects: stricter.
    return node({
      kind: 'tuple',
      items,
      ...(rest ? { rest } : {}),
      ...(mode === 'strip' ? { safety: 'stricter' as const, extraItems: 'strip' as const } : {}),
    })
  }

function valuesNode(values: readonly unknown[]): IRNode {
  if (values.every((x) => typeof x === 'string' || typeof x === 'number'))
    return node({ kind: 'enum', values: values as (string | number)[] })
  if (values.some((x) => typeof x === 'symbol' || (typeof x === 'object' && x !== null)))
    return native('literal')
  return node({ kind: 'literal', values: values as never })
}

// An option object is a valibot object whose discriminator entry is a literal or picklist.
function discriminated(options: ValibotLike[], key: string): boolean {
  const seen = new Set<unknown>()
  for (const o of options) {
    const d = (o.entries as Record<string, ValibotLike> | undefined)?.[key]
    if (!d || d.pipe || d.fallback !== undefined) return false
    const values =
      d.type === 'literal' ? [d.literal] : d.type === 'picklist' ? d.options : undefined
    if (!values) return false
    for (const v of values) {
      if (seen.has(v) || typeof v === 'bigint') return false
      seen.add(v)
    }
  }
  return true
}

// Whether an IR node can carry an input value into the output unchanged (unknown, catchall):
// through any child but a pipe's input and a record's key schema.
const passing: Partial<Visitor<boolean>> = {
  ...each(['unknown', 'native', 'ref'], () => true),
  pipe: (n) => passesThrough(n.out),
  record: (n) => passesThrough(n.value),
}

function passesThrough(n: IRNode): boolean {
  return visitSome(n, passing, (m) => children(m).some((c) => passesThrough(c.node)), undefined)
}

const table: Record<string, Convert> = {
  string: () => stringNode([]),
  number: () => numberNode({ integer: false, checks: [] }),
  bigint: () => node({ kind: 'bigint', coerce: false, checks: [] }),
  boolean: () => node({ kind: 'boolean', coerce: false }),
  date: () => node({ kind: 'date', coerce: false, checks: [] }),
  ...simpleKinds(),
  literal: (s) => valuesNode([s.literal]),
  picklist: (s) => valuesNode(s.options),
  enum: (s) => valuesNode(s.options),
  object: objectOf('strip'),
  loose_object: objectOf('loose'),
  strict_object: objectOf('strict'),
  object_with_rest: objectOf('rest'),
  tuple: tupleOf('strip'),
  loose_tuple: tupleOf('loose'),
  strict_tuple: tupleOf('strict'),
  tuple_with_rest: tupleOf('rest'),
  array: (s, ctx) => node({ kind: 'array', item: toIR(s.item, ctx) }),
  record: (s, ctx) =>
    node({
      kind: 'record',
      key: toIR(s.key, ctx),
      value: toIR(s.value, ctx),
      ignoredKeys,
      // valibot accepts arrays as records; the compiled check does not.
      safety: 'stricter',
    }),
  union: (s, ctx) => {
    const options = (s.options as ValibotLike[]).map((o) => toIR(o, ctx))
    return options.length === 0 ? native('empty-union') : node({ kind: 'union', options })
  },
  variant: (s, ctx) => {
    const options = s.options as ValibotLike[]
    // First option that accepts wins among those whose discriminator matches: with distinct
    // discriminator values that is a discriminated union, otherwise a plain first-match union.
    if (options.length === 0 || options.some((o) => o.type === 'variant')) return native('variant')
    const ir = options.map((o) => toIR(o, ctx))
    const key = String(s.key)
    return node({
      kind: 'union',
      options: ir,
      ...(discriminated(options, key) ? { discriminator: key } : {}),
    })
  },
  intersect: (s, ctx) => {
    const options = (s.options as ValibotLike[]).map((o) => toIR(o, ctx))
    if (options.length === 0) return native('empty-intersect')
    // valibot merges with SameValueZero and `constructor === Object`; the engine's merge agrees on
    // everything the builder creates, not on values passed through unchanged (null-prototype objects).
    if (options.length > 1 && options.some(passesThrough)) return native('intersect', options[0])
    return options.reduce((left, right) => node({ kind: 'intersection', left, right }))
  },
  optional: (s, ctx) =>
    s.default !== undefined
      ? defaulted(s, 'undefined', ctx)
      : node({ kind: 'optional', inner: toIR(s.wrapped, ctx) }),
  undefinedable: (s, ctx) =>
    s.default !== undefined
      ? defaulted(s, 'undefined', ctx)
      : node({ kind: 'optional', inner: toIR(s.wrapped, ctx) }),
  nullable: (s, ctx) =>
    s.default !== undefined
      ? defaulted(s, 'null', ctx)
      : node({ kind: 'nullable', inner: toIR(s.wrapped, ctx) }),
  nullish: (s, ctx) =>
    s.default !== undefined
      ? defaulted(s, 'nullish', ctx)
      : node({ kind: 'optional', inner: node({ kind: 'nullable', inner: toIR(s.wrapped, ctx) }) }),
  // A present `undefined` is rejected by the wrapped schema, an absent key is not: valibot decides.
  exact_optional: (s, ctx) => native('exact-optional', toIR(s.wrapped, ctx)),
  lazy: (s, ctx) =>
    // A getter reading the input picks the schema per value: only valibot can run it.
    (s.getter as (x?: unknown) => ValibotLike).length === 0
      ? toIR((s.getter as () => ValibotLike)(), ctx)
      : native('lazy'),
}

function pipeNode(schema: ValibotLike, ctx: Context): IRNode {
  const [head, ...actions] = schema.pipe!
  const base = toIR(head as ValibotLike, ctx)
  const meta: Record<string, unknown> = {}
  const rest: ValibotItem[] = []
  for (const a of actions) {
    if (a.kind !== 'metadata') rest.push(a)
    else if (a.type === 'title' || a.type === 'description' || a.type === 'examples')
      meta[a.type] = a[a.type]
    // `metadata({ id, deprecated, … })`: a free-form object; readMeta keeps the well-typed fields.
    else if (a.type === 'metadata' && typeof a.metadata === 'object' && a.metadata !== null)
      Object.assign(meta, a.metadata)
  }
  return withMeta(applyActions(base, rest), readMeta(meta))
}

function convert(schema: ValibotLike, ctx: Context): IRNode {
  try {
    const kind = table[schema.type]
    if (schema.async) return native('async')
    if (schema.fallback !== undefined) return native('fallback')
    if (schema.pipe) return pipeNode(schema, ctx)
    // A kind a later valibot adds degrades to native, never to an error.
    return kind
      ? kind(schema, ctx)
      : native('unsupported', undefined, undefined, `valibot type ${String(schema.type)}`)
  } catch {
    return native('unreadable')
  }
}

function toIR(schema: ValibotLike, ctx: Context): IRNode {
  return ctx.enter(schema, () => convert(schema, ctx))
}

/**
 * Translates a valibot 1 schema into the IR; anything the engine cannot reproduce exactly
 * (custom checks, transforms, fallbacks, async, unknown kinds) becomes a `native` node.
 * @example valibotToIR(v.object({ name: v.string() })) // → { kind: 'object', … }
 */
export function valibotToIR(schema: ValibotLike): IRNode {
  return toIR(schema, new Recursion())
}
