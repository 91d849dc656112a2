import { acceptsUndefined, LEAF_KINDS } from '../../engine/ir/safety.js'
import type { IRArray, IRNode, IRObject } from '../../engine/ir/types.js'
import { each, kinds, type Visitor, visit } from '../../engine/ir/visit.js'
import { isObject } from '../../shared/is-object.js'
import { defaultReach } from './caps.js'
import { type GenContext, gen, reservedKeys } from './ir-valid.js'
import { leafEdges } from './leaf-edges.js'

/** A value of a schema on one edge of one of its rules, the rest of it a fixed valid value. */
export interface Edge {
  readonly value: unknown
  /** Where the edge is (`['items', 0, 'name']`): the field a 422 names when it is invalid. */
  readonly path: readonly (string | number)[]
  /** Meant valid (a bound itself, a member, a branch) or invalid (one step past); the library decides. */
  readonly valid: boolean
  /** The library may report it at `path` or below (unions). */
  readonly deep: boolean
}

type Edges = Edge[]

/** One value of a node, the same every time: the shortest of a few drawn with a fixed seed. */
export function fixedSample(node: IRNode, ctx: GenContext): unknown {
  const arb = gen(node, ctx)
  if (arb === undefined) return undefined
  try {
    const xs = ctx.fc.sample(arb, { numRuns: 4, seed: 42 })
    const size = (x: unknown) => JSON.stringify(x)?.length ?? 0
    return xs.reduce((a, b) => (size(b) < size(a) ? b : a))
  } catch {
    return undefined
  }
}

const at = (value: unknown, valid: boolean): Edge => ({ value, path: [], valid, deep: false })
const below = (key: string | number, e: Edge, value: unknown): Edge => ({
  ...e,
  value,
  path: [key, ...e.path],
})
const deeper = (ctx: GenContext, key: string | number): GenContext => ({
  ...ctx,
  at: `${ctx.at}.${key}`,
})
const caps = (ctx: GenContext) => ctx.caps ?? defaultReach
const note = (ctx: GenContext) => (s: string) => ctx.notes?.add(`${ctx.at}: ${s}`)

function objectEdges(n: IRObject, base: unknown, ctx: GenContext): Edges {
  const o = isObject(base) ? base : {}
  const out: Edges = []
  for (const p of n.properties) {
    if (reservedKeys.has(p.key)) continue
    const { [p.key]: had, ...rest } = o
    const child = deeper(ctx, p.key)
    const value = had === undefined ? fixedSample(p.value, child) : had
    if (p.presence !== 'required' || acceptsUndefined(p.value)) {
      // An optional field absent and present.
      out.push(
        had === undefined
          ? below(p.key, at(value, true), { ...o, [p.key]: value })
          : at(rest, true),
      )
    } else out.push({ value: rest, path: [p.key], valid: false, deep: false })
    if (value !== undefined)
      for (const e of edgesOf(p.value, value, child))
        out.push(below(p.key, e, { ...o, [p.key]: e.value }))
  }
  return out
}

function arrayEdges(n: IRArray, base: unknown, ctx: GenContext): Edges {
  const items = Array.isArray(base) ? base : []
  const first = items[0] ?? fixedSample(n.item, deeper(ctx, '*'))
  if (first === undefined) return []
  const out: Edges = []
  const min = n.minItems ?? 0
  const cap = caps(ctx).array
  const sized = (k: number) => Array.from({ length: k }, (_, i) => items[i] ?? first)
  if (min > 0) out.push(at(sized(min), true), at(sized(min - 1), false))
  if (n.maxItems !== undefined) {
    if (n.maxItems > cap)
      note(ctx)(
        `longest array sent has ${cap} items (the schema allows ${n.maxItems}): ${caps(ctx).arrayBy} refuses a longer one first`,
      )
    out.push(at(sized(Math.min(n.maxItems, cap)), true))
    if (n.maxItems < cap) out.push(at(sized(n.maxItems + 1), false))
  }
  const rest = items.length > 0 ? items.slice(1) : sized(Math.max(0, min - 1))
  if (n.maxItems !== 0)
    for (const e of edgesOf(n.item, first, deeper(ctx, 0)))
      out.push(below(0, e, [e.value, ...rest]))
  return out
}

const inner = (n: { inner: IRNode }, base: unknown, ctx: GenContext) =>
  edgesOf(n.inner, base === undefined ? fixedSample(n.inner, ctx) : base, ctx)

const table: Visitor<Edges, { base: unknown; ctx: GenContext }> = {
  ...each(LEAF_KINDS, (n, { base, ctx }) => {
    const leaf = leafEdges(n, base, caps(ctx), note(ctx))
    return [...leaf.valid.map((v) => at(v, true)), ...leaf.invalid.map((v) => at(v, false))]
  }),
  object: (n, { base, ctx }) => objectEdges(n, base, ctx),
  array: (n, { base, ctx }) => arrayEdges(n, base, ctx),
  tuple: (n, { base, ctx }) => {
    const t = Array.isArray(base) ? base : []
    return n.items.flatMap((item, i) =>
      t[i] === undefined
        ? []
        : edgesOf(item, t[i], deeper(ctx, i)).map((e) =>
            below(
              i,
              e,
              t.map((x, j) => (j === i ? e.value : x)),
            ),
          ),
    )
  },
  record: (n, { base, ctx }) => {
    const [key] = isObject(base) ? Object.keys(base) : []
    if (key === undefined || !isObject(base)) return []
    return edgesOf(n.value, base[key], deeper(ctx, key)).map((e) =>
      below(key, e, { ...base, [key]: e.value }),
    )
  },
  // A valid value of each branch, and each branch's own edges (reported at or below the union).
  union: (n, { ctx }) =>
    n.options.flatMap((option) => {
      const v = fixedSample(option, ctx)
      if (v === undefined) return []
      // The library reports a union's rejection at the union (or a discriminated one below it).
      const own = edgesOf(option, v, ctx).map((e) => ({ ...e, path: [], deep: true }))
      return [{ ...at(v, true), deep: true }, ...own]
    }),
  intersection: (n, { base, ctx }) => [
    ...edgesOf(n.left, base, ctx),
    ...edgesOf(n.right, base, ctx),
  ],
  optional: (n, { base, ctx }) => [
    ...(base === undefined ? [] : [at(undefined, true)]),
    ...inner(n, base, ctx),
  ],
  nullable: (n, { base, ctx }) => [at(null, true), ...inner(n, base, ctx)],
  ...each(['readonly', 'default'] as const, (n, { base, ctx }) => inner(n, base, ctx)),
  pipe: (n, { base, ctx }) => edgesOf(n.in, base, ctx),
  recursive: (n, { base, ctx }) =>
    edgesOf(n.node, base, { ...ctx, recursions: new Map(ctx.recursions).set(n.id, n) }),
  native: (n, { base, ctx }) => (n.inner ? edgesOf(n.inner, base, ctx) : []),
  ...each(kinds('ref set unknown never undefined'), () => []),
}

/**
 * The edges of every rule of a node, each a whole value that differs from `base` (a valid value)
 * at one place: lengths and bounds at and one past each limit, enum members, booleans, each union
 * branch, each optional field present and absent, each required one absent, array sizes. Whether
 * each is valid is for the caller to ask the library; the same list for the same node and base.
 */
export function edgesOf(node: IRNode, base: unknown, ctx: GenContext): Edge[] {
  if (ctx.at.split('.').length > caps(ctx).depth) return []
  return visit(node, table, { base, ctx })
}

/** This module's IR table, for the test that it has a handler for every kind. */
export const tables = { table }
