import type { Arbitrary } from 'fast-check'
import { acceptsUndefined, LEAF_KINDS, leafKinds } from '../../engine/ir/safety.js'
import type { IRNode, IRObject } from '../../engine/ir/types.js'
import { each, type Visitor, visit } from '../../engine/ir/visit.js'
import { boundedFilter, failoverOneOf } from './bounded-filter.js'
import { type Caps, unguardedCaps } from './caps.js'
import { irAccepts } from './ir-accepts.js'
import { type GenContext, gen, keyContext, leaveOut, reservedKeys } from './ir-valid.js'
import { leafMissCandidates } from './leaf-misses.js'
import { stringBounds } from './string-arbitrary.js'

/** A value that breaks one rule of a schema, and where the library reports it. */
export interface Miss {
  readonly value: unknown
  /** The path of the broken value inside the schema's value (`['items', 0, 'name']`). */
  readonly path: readonly (string | number)[]
  /** True when the library may report the issue at `path` or anywhere below it (unions, strict objects). */
  readonly deep: boolean
}

type MissArb = Arbitrary<Miss> | undefined

const at = (value: unknown): Miss => ({ value, path: [], deep: false })
const under = (key: string | number, m: Miss): Miss => ({ ...m, path: [key, ...m.path] })

function samples(node: IRNode, ctx: GenContext): unknown[] {
  const arb = gen(node, ctx)
  if (arb === undefined) return []
  try {
    return ctx.fc.sample(arb, { numRuns: 4, seed: 42 })
  } catch {
    return []
  }
}

/** Concrete near misses the node rejects, kept once when the arbitrary is built. */
function constants(
  node: IRNode,
  ctx: GenContext,
  candidates: readonly unknown[],
  accepts = leafKinds.has(node.kind) || node.kind === 'undefined' ? irAccepts(node) : undefined,
): MissArb {
  const kept = candidates.filter((x) => x !== undefined && (accepts === undefined || !accepts(x)))
  if (kept.length === 0) return undefined
  return ctx.fc.constantFrom(...kept).map(at)
}

function oneOf(ctx: GenContext, arbs: MissArb[]): MissArb {
  const present = arbs.filter((a): a is Arbitrary<Miss> => a !== undefined)
  return present.length === 0 ? undefined : failoverOneOf(ctx.fc, present)
}

/** Misses kept by `keep`, with a bounded retry (fast-check's own filter retries forever). */
const only = (ctx: GenContext, arb: MissArb, keep: (m: Miss) => boolean): MissArb =>
  arb && boundedFilter(ctx.fc, arb, keep, `near misses at ${ctx.at}`)

/** What a near miss may hold: the guards' limits in a request, else what is worth building. */
const capsOf = (ctx: GenContext): Caps => ctx.caps ?? unguardedCaps

// Values of another type than a composite node's; its wrappers drop the ones they accept.
const wrongType = ['not an object', 42, true, null]

function objectMisses(n: IRObject, ctx: GenContext): MissArb {
  const { fc } = ctx
  const whole = gen(n, ctx)
  // Not an array: valibot takes an array for an object in some places.
  const arbs: MissArb[] = [constants(n, ctx, wrongType)]
  if (whole === undefined) return oneOf(ctx, arbs)
  const object = whole as Arbitrary<Record<string, unknown>>
  for (const p of n.properties) {
    if (reservedKeys.has(p.key)) continue
    const inner = miss(p.value, { ...ctx, at: `${ctx.at}.${p.key}` })
    if (inner !== undefined) {
      arbs.push(
        fc
          .tuple(object, inner)
          .map(([o, m]) => ({ ...under(p.key, m), value: { ...o, [p.key]: m.value } })),
      )
    }
    if (p.presence === 'required' && !acceptsUndefined(p.value)) {
      arbs.push(
        object.map((o) => {
          const { [p.key]: _gone, ...rest } = o
          return { value: rest, path: [p.key], deep: false }
        }),
      )
    }
  }
  if (n.unknownKeys === 'strict') {
    // Libraries report an unknown key at the object or at the key: anything at or below it.
    arbs.push(object.map((o) => ({ value: { ...o, unexpected_key: 1 }, path: [], deep: true })))
  }
  return oneOf(ctx, arbs)
}

const misses: Visitor<MissArb, GenContext> = {
  ...each([...LEAF_KINDS, 'undefined', 'never'], (n, ctx) => {
    const caps = capsOf(ctx)
    const max = n.kind === 'string' ? stringBounds(n).max : undefined
    if (max !== undefined && max > caps.string)
      leaveOut(
        ctx,
        `no string over ${caps.string} characters sent (the schema allows ${max}): ${caps.stringBy} refuses it first`,
      )
    return constants(n, ctx, leafMissCandidates(n, samples(n, ctx), caps.string))
  }),
  unknown: () => undefined,
  object: objectMisses,
  array: (n, ctx) => {
    const { fc } = ctx
    const min = n.minItems ?? 0
    const item = gen(n.item, ctx)
    const itemMiss = miss(n.item, { ...ctx, at: `${ctx.at}.0` })
    const arbs: MissArb[] = [constants(n, ctx, ['not an array', 42, {}, null])]
    const cap = capsOf(ctx).array
    if (n.maxItems !== undefined && n.maxItems > cap)
      leaveOut(
        ctx,
        `no array over ${cap} items sent (the schema allows ${n.maxItems}): ${capsOf(ctx).arrayBy} refuses it first`,
      )
    if (item !== undefined) {
      if (min > 0 && min - 1 <= cap)
        arbs.push(fc.array(item, { minLength: min - 1, maxLength: min - 1 }).map(at))
      if (n.maxItems !== undefined && n.maxItems < cap)
        arbs.push(fc.array(item, { minLength: n.maxItems + 1, maxLength: n.maxItems + 1 }).map(at))
    }
    if (itemMiss !== undefined && (n.maxItems === undefined || n.maxItems > 0) && min <= cap) {
      // The broken item first, then valid ones up to the minimum length.
      const others = Math.max(0, min - 1)
      const rest =
        item === undefined ? undefined : fc.array(item, { minLength: others, maxLength: others })
      if (rest !== undefined || others === 0)
        arbs.push(
          fc
            .tuple(itemMiss, rest ?? fc.constant([]))
            .map(([m, r]) => ({ ...under(0, m), value: [m.value, ...r] })),
        )
    }
    return oneOf(ctx, arbs)
  },
  set: (n, ctx) => constants(n, ctx, ['not a set', 42, null]),
  tuple: (n, ctx) => {
    const { fc } = ctx
    const items = n.items.map((i) => gen(i, ctx))
    const arbs: MissArb[] = [constants(n, ctx, ['not a tuple', 42, {}, null])]
    if (items.every((a) => a !== undefined)) {
      const whole = fc.tuple(...(items as Arbitrary<unknown>[]))
      n.items.forEach((item, i) => {
        const m = miss(item, { ...ctx, at: `${ctx.at}.${i}` })
        if (m !== undefined)
          arbs.push(
            fc.tuple(whole, m).map(([t, x]) => {
              const value = [...t]
              value[i] = x.value
              return { ...under(i, x), value }
            }),
          )
      })
      if (n.items.length > 0) arbs.push(whole.map((t) => at(t.slice(0, -1))))
    }
    return oneOf(ctx, arbs)
  },
  record: (n, ctx) => {
    const { fc } = ctx
    const key = gen(n.key, keyContext(ctx))
    const value = miss(n.value, { ...ctx, at: `${ctx.at}.*` })
    const arbs: MissArb[] = [constants(n, ctx, ['not a record', 42, null])]
    if (key !== undefined && value !== undefined && n.key.kind === 'string') {
      arbs.push(
        fc
          .tuple(
            boundedFilter(
              fc,
              key,
              (k) => typeof k === 'string' && !reservedKeys.has(k),
              `keys at ${ctx.at}`,
            ),
            value,
          )
          .map(([k, m]) => ({ ...under(k as string, m), value: { [k as string]: m.value } })),
      )
    }
    return oneOf(ctx, arbs)
  },
  union: (n, ctx) => {
    const candidates = ['not-an-option', 42, -1.5, true, null, [], {}, { kind: 'unknown' }]
    const accepts = irAccepts(n)
    // Reported at or below here: a discriminated union names its discriminator (`type`).
    const arbs: MissArb[] = [
      constants(n, ctx, candidates, accepts)?.map((m) => ({ ...m, deep: true })),
    ]
    // A broken option is a miss only when no other option takes it; reported at or below here.
    if (accepts !== undefined) {
      for (const option of n.options) {
        const m = miss(option, ctx)
        if (m !== undefined)
          arbs.push(
            only(ctx, m, (x) => !accepts(x.value))?.map((x) => ({ ...x, path: [], deep: true })),
          )
      }
    }
    return oneOf(ctx, arbs)
  },
  intersection: (n, ctx) => {
    const accepts = irAccepts(n)
    const left = miss(n.left, ctx)
    const arbs: MissArb[] = [constants(n, ctx, ['not-valid', 42, null], accepts)]
    if (left !== undefined && accepts !== undefined)
      arbs.push(only(ctx, left, (m) => !accepts(m.value))?.map((m) => ({ ...m, deep: true })))
    return oneOf(ctx, arbs)
  },
  optional: (n, ctx) => only(ctx, miss(n.inner, ctx), (m) => m.value !== undefined),
  default: (n, ctx) => {
    // What the default replaces is no miss: undefined (unless only null), null (when asked).
    const takesUndefined = n.on !== 'null'
    const takesNull = n.on === 'null' || n.on === 'nullish'
    return only(
      ctx,
      miss(n.inner, ctx),
      (m) => !(takesUndefined && m.value === undefined) && !(takesNull && m.value === null),
    )
  },
  nullable: (n, ctx) => only(ctx, miss(n.inner, ctx), (m) => m.value !== null),
  readonly: (n, ctx) => miss(n.inner, ctx),
  pipe: (n, ctx) => miss(n.in, ctx),
  recursive: (n, ctx) => miss(n.node, { ...ctx, recursions: new Map(ctx.recursions).set(n.id, n) }),
  ref: (n, ctx) => {
    const target = ctx.recursions.get(n.id)
    if (target === undefined || ctx.rounds >= 1) return undefined
    return miss(target.node, { ...ctx, rounds: ctx.rounds + 1 })
  },
  native: (n, ctx) => (n.inner ? miss(n.inner, ctx) : undefined),
}

/**
 * Near misses of an IR node: values that break one of its rules (a bound, a format, a missing
 * required key, a wrong type, an unknown key where strict) while the rest stays valid, each with
 * the path the library reports it at; undefined when the node accepts everything.
 */
export function miss(node: IRNode, ctx: GenContext): MissArb {
  return visit(node, misses, ctx)
}

/** This module's IR tables, for the test that each has a handler for every kind. */
export const tables = { misses }
