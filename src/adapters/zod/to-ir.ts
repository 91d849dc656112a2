import { type $ZodType, globalRegistry } from 'zod/v4/core'
import { type ItemBounds, narrowItems } from '../../engine/ir/bounds.js'
import { staticDefault } from '../../engine/ir/defaults.js'
import { readMeta, withMeta } from '../../engine/ir/meta.js'
import { irNode, nativeNode } from '../../engine/ir/nodes.js'
import { Recursion } from '../../engine/ir/recursion.js'
import { simpleKinds } from '../../engine/ir/simple-kinds.js'
import type { IRBound, IRMeta, IRNode, IRProperty, IRStringCheck } from '../../engine/ir/types.js'
import { boundCheck, stringCheck, type ZodCheckLike } from './checks.js'

/** The parts of a zod 4 schema the converter reads (classic and mini share them). */
export interface ZodLike extends ZodCheckLike {
  readonly _zod: ZodCheckLike['_zod'] & {
    readonly traits: Set<string>
    readonly optin?: 'optional' | 'defaulted'
    readonly optout?: 'optional'
    readonly values?: Set<unknown>
    readonly pattern?: RegExp
    readonly innerType?: ZodLike
  }
}

type Context = Recursion<ZodLike>

type Convert = (schema: ZodLike, def: Record<string, any>, ctx: Context) => IRNode

const node = irNode
const native = nativeNode

/** Checks other than the ones a kind understands (refine, custom, …) make the node native. */
function withChecks(
  def: Record<string, any>,
  base: IRNode,
  own: (c: ZodCheckLike) => boolean,
): IRNode {
  const checks: ZodCheckLike[] = def.checks ?? []
  const rest = checks.filter((c) => !own(c))
  return rest.length === 0 ? base : nativeChecks(rest, base)
}

function nativeChecks(rest: ZodCheckLike[], base: IRNode): IRNode {
  const reason = rest.some((c) => c._zod.def.check === 'custom') ? 'refine' : 'check'
  return native(reason, base)
}

/** A schema's checks in run order: a format schema (z.email(), z.int()) is its own first check. */
function checksOf(schema: ZodLike, def: Record<string, any>): ZodCheckLike[] {
  return typeof def.check === 'string' ? [schema, ...(def.checks ?? [])] : (def.checks ?? [])
}

function bounded<V>(
  schema: ZodLike,
  def: Record<string, any>,
  build: (checks: IRBound<V>[], format?: string) => IRNode,
): IRNode {
  const bounds: IRBound<V>[] = []
  const rest: ZodCheckLike[] = []
  let format: string | undefined
  for (const c of checksOf(schema, def)) {
    if (!boundCheck(c, bounds)) rest.push(c)
    else if (typeof c._zod.def.format === 'string') format ??= c._zod.def.format
  }
  const base = build(bounds, format)
  return rest.length === 0 ? base : nativeChecks(rest, base)
}

function stringNode(schema: ZodLike, def: Record<string, any>): IRNode {
  const list = checksOf(schema, def)
  const checks: IRStringCheck[] = []
  for (const c of list) {
    const ir = stringCheck(c)
    if (!ir)
      return native(
        c._zod.def.check === 'custom' ? 'refine' : 'check',
        // The accepted input, for the docs: coerced as the schema coerces.
        node({ kind: 'string', coerce: def.coerce === true, lengthUnit: 'code-point', checks }),
      )
    checks.push(ir)
  }
  return node({ kind: 'string', coerce: def.coerce === true, lengthUnit: 'code-point', checks })
}

function presence(el: ZodLike): Pick<IRProperty, 'presence' | 'outputOptional'> | undefined {
  const { optin, optout } = el._zod
  if (optin === undefined) return { presence: 'required', outputOptional: optout === 'optional' }
  if (optin === 'defaulted') return { presence: 'defaulted', outputOptional: optout === 'optional' }
  if (optout === 'optional') return { presence: 'optional', outputOptional: true }
  return undefined
}

function objectNode(_: ZodLike, def: Record<string, any>, ctx: Context): IRNode {
  const shape = def.shape as Record<string, ZodLike>
  if (Object.getOwnPropertySymbols(shape).length > 0) return native('symbol-keys')
  const properties: IRProperty[] = []
  for (const key of Object.keys(shape)) {
    const el = shape[key]!
    const p = presence(el)
    if (!p || key === '__proto__') return native('property-presence')
    properties.push({ key, value: toIR(el, ctx), ...p })
  }
  const catchall = def.catchall as ZodLike | undefined
  const type = catchall?._zod.def.type
  const base = node({
    kind: 'object',
    properties,
    unknownKeys: catchall === undefined ? 'strip' : type === 'never' ? 'strict' : 'catchall',
    ...(catchall && type !== 'never' ? { catchall: toIR(catchall, ctx) } : {}),
  })
  return withChecks(def, base, () => false)
}

function lengths(def: Record<string, any>): ItemBounds | undefined {
  const out: ItemBounds = {}
  for (const c of (def.checks ?? []) as ZodCheckLike[]) {
    const d = c._zod.def
    if (d.check === 'min_length' || d.check === 'min_size') narrowItems(out, d.minimum, undefined)
    else if (d.check === 'max_length' || d.check === 'max_size')
      narrowItems(out, undefined, d.maximum)
    else if (d.check === 'length_equals' || d.check === 'size_equals')
      narrowItems(out, d.length ?? d.size, d.length ?? d.size)
    else return undefined
  }
  return out
}

const wrap =
  (kind: 'optional' | 'nullable' | 'readonly'): Convert =>
  (schema, def, ctx) => {
    if (kind === 'optional' && schema._zod.traits.has('$ZodExactOptional'))
      return native('exact-optional', toIR(def.innerType, ctx))
    return node({ kind, inner: toIR(def.innerType, ctx) })
  }

const table: Record<string, Convert> = {
  string: stringNode,
  number: (schema, def) =>
    bounded<number>(schema, def, (checks, format) =>
      node({
        kind: 'number',
        coerce: def.coerce === true,
        integer: format?.includes('int') === true,
        ...(format !== undefined ? { format } : {}),
        checks,
      }),
    ),
  bigint: (schema, def) =>
    bounded<bigint>(schema, def, (checks) =>
      node({ kind: 'bigint', coerce: def.coerce === true, checks }),
    ),
  date: (schema, def) =>
    bounded<number>(schema, def, (checks) =>
      node({ kind: 'date', coerce: def.coerce === true, checks }),
    ),
  boolean: (_, def) =>
    withChecks(def, node({ kind: 'boolean', coerce: def.coerce === true }), () => false),
  ...simpleKinds(),
  literal: (_, def) => node({ kind: 'literal', values: [...def.values] }),
  enum: (schema) =>
    node({ kind: 'enum', values: [...(schema._zod.values ?? [])] as (string | number)[] }),
  template_literal: (schema) =>
    schema._zod.pattern
      ? node({
          kind: 'string',
          coerce: false,
          lengthUnit: 'code-point',
          checks: [{ kind: 'pattern', pattern: schema._zod.pattern, format: 'template_literal' }],
        })
      : native('template-literal'),
  object: objectNode,
  array: (_, def, ctx) => {
    const item = toIR(def.element, ctx)
    const len = lengths(def)
    return len
      ? node({ kind: 'array', item, ...len })
      : native('check', node({ kind: 'array', item }))
  },
  set: (_, def, ctx) => {
    const item = toIR(def.valueType, ctx)
    return node({ kind: 'set', item, ...(lengths(def) ?? {}) })
  },
  tuple: (_, def, ctx) => {
    const items = (def.items as ZodLike[]).map((i) => toIR(i, ctx))
    const base = node({ kind: 'tuple', items, ...(def.rest ? { rest: toIR(def.rest, ctx) } : {}) })
    const allRequired = (def.items as ZodLike[]).every(
      (i) => i._zod.optin === undefined && i._zod.optout === undefined,
    )
    return allRequired ? withChecks(def, base, () => false) : native('optional-tuple-items', base)
  },
  record: (_, def, ctx) => {
    const key = toIR(def.keyType, ctx)
    const value = toIR(def.valueType, ctx)
    const base = node({ kind: 'record', key, value })
    const keyed =
      key.kind === 'string' && !def.keyType._zod.values && def.mode !== 'loose' && !def.partial
    return keyed ? withChecks(def, base, () => false) : native('record-keys', base)
  },
  map: () => native('map'),
  union: (_, def, ctx) => {
    const options = (def.options as ZodLike[]).map((o) => toIR(o, ctx))
    const disc = typeof def.discriminator === 'string' ? def.discriminator : undefined
    const base = node({
      kind: 'union',
      options,
      ...(disc !== undefined ? { discriminator: disc } : {}),
    })
    if (def.unionFallback || (disc === undefined && def.inclusive === false))
      return native('exclusive-union', base)
    return withChecks(def, base, () => false)
  },
  intersection: (_, def, ctx) =>
    node({ kind: 'intersection', left: toIR(def.left, ctx), right: toIR(def.right, ctx) }),
  optional: wrap('optional'),
  nullable: wrap('nullable'),
  readonly: wrap('readonly'),
  default: (_, def, ctx) => {
    const get = () => def.defaultValue
    return node({
      kind: 'default',
      inner: toIR(def.innerType, ctx),
      value: staticDefault(get),
      get,
    })
  },
  prefault: (_, def, ctx) => native('prefault', toIR(def.innerType, ctx)),
  nonoptional: (_, def, ctx) => native('nonoptional', toIR(def.innerType, ctx)),
  catch: (_, def, ctx) => native('catch', toIR(def.innerType, ctx)),
  success: () => native('success', undefined, node({ kind: 'boolean', coerce: false })),
  pipe: (_, def, ctx) => {
    const input = toIR(def.in, ctx)
    const output = toIR(def.out, ctx)
    if (typeof def.transform === 'function') return native('codec', input, output)
    if (output.kind === 'native' && output.reason === 'transform') return native('transform', input)
    if (input.kind === 'native' && input.reason === 'transform')
      return native('preprocess', output, output)
    return withChecks(def, node({ kind: 'pipe', in: input, out: output }), () => false)
  },
  transform: () => native('transform'),
  lazy: (schema, _, ctx) => toIR(schema._zod.innerType!, ctx),
  custom: () => native('custom'),
  promise: () => native('promise'),
  function: () => native('function'),
  symbol: () => native('symbol'),
  file: () => native('file'),
}

// Kinds whose converter reads `def.checks` itself; on any other kind a check (refine) is native.
const ownChecks = new Set([
  'string',
  'number',
  'bigint',
  'date',
  'boolean',
  'object',
  'array',
  'set',
  'tuple',
  'record',
  'union',
  'pipe',
])

function metaOf(schema: ZodLike): IRMeta | undefined {
  const m = globalRegistry.get(schema as never) as Record<string, unknown> | undefined
  if (!m) return undefined
  const examples = Array.isArray(m.examples) || m.example === undefined ? m.examples : [m.example]
  return readMeta({ ...m, examples })
}

function convert(schema: ZodLike, ctx: Context): IRNode {
  const def = schema._zod.def
  try {
    const kind = table[def.type as string]
    // A kind this zod version added after us degrades to native, never to an error.
    const ir = kind
      ? kind(schema, def, ctx)
      : native('unsupported', undefined, undefined, `zod type ${String(def.type)}`)
    const checks = def.checks as ZodCheckLike[] | undefined
    return !ownChecks.has(def.type) && checks && checks.length > 0 ? nativeChecks(checks, ir) : ir
  } catch {
    return native('unreadable')
  }
}

function toIR(schema: ZodLike, ctx: Context): IRNode {
  return withMeta(
    ctx.enter(schema, () => convert(schema, ctx)),
    metaOf(schema),
  )
}

/**
 * Translates a zod 4 schema into the IR; kinds the engine cannot reproduce exactly become
 * `native` nodes (the enclosing request part then runs on zod alone).
 * @example zodToIR(z.object({ name: z.string() })) // → { kind: 'object', properties: [...], ... }
 */
export function zodToIR(schema: $ZodType | ZodLike): IRNode {
  return toIR(schema as ZodLike, new Recursion())
}
