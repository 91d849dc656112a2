import type { Arbitrary } from 'fast-check'
import type { IRNode, IRObject, IRRecord, IRRecursive } from '../../engine/ir/types.js'
import { type Visitor, visit } from '../../engine/ir/visit.js'
import type { FC } from '../load-fast-check.js'
import { boundedFilter } from './bounded-filter.js'
import { type Caps, defaultReach } from './caps.js'
import { bothSidesTake, merge } from './intersection.js'
import { irAccepts } from './ir-accepts.js'
import { bigintCandidates, dateCandidates, numberCandidates } from './number-arbitrary.js'
import { arraysOf } from './reach.js'
import { stringBounds, stringCandidates } from './string-arbitrary.js'

/** What a generator carries down the IR. */
export interface GenContext {
  readonly fc: FC
  /** Where in the value (for messages): `body.items.*`. */
  readonly at: string
  readonly recursions: ReadonlyMap<string, IRRecursive>
  /** How many times a recursion has been entered on this branch. */
  readonly rounds: number
  /** What a value must fit to reach its schema over HTTP; none for `arbitrary()`. */
  readonly caps?: Caps
  /** What was left out and why, one line each (`body.text: …`), for the fuzzer's report. */
  readonly notes?: Set<string>
  /**
   * Under an intersection: a defaulted value is always there, since one side would fill the
   * default and the other pass the key by as sent, and zod cannot merge the two outputs.
   */
  readonly inIntersection?: boolean
  /** About how many characters this value may take (its share of the part's budget). */
  readonly budget?: number
}

/** Leaves out what cannot be generated, with a note saying why. */
export function leaveOut(ctx: GenContext, why: string): undefined {
  ctx.notes?.add(`${ctx.at}: ${why}`)
  return undefined
}

/**
 * Keys a guard refuses (`__proto__`: 400) or removes (`constructor`, `prototype`): never generated
 * as an unknown key.
 */
export const reservedKeys: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])

// Past this many rounds of a recursion (each at least two levels deep, an object and its array
// or union), only what needs no further round is generated; fewer where the guards' maxDepth is low.
const MAX_ROUNDS = 6
const maxRounds = (ctx: GenContext) => Math.min(MAX_ROUNDS, Math.floor(reachOf(ctx).depth / 3))

/** What a valid value may reach: the part's caps, or without a request a body's defaults. */
const reachOf = (ctx: GenContext): Caps => ctx.caps ?? defaultReach
const budgetOf = (ctx: GenContext) => ctx.budget ?? reachOf(ctx).budget
/** A share of this value's budget, for one of `n` parts of it. */
const share = (ctx: GenContext, n: number): GenContext => ({
  ...ctx,
  budget: Math.max(8, Math.floor(budgetOf(ctx) / Math.max(1, n))),
})

const RECURSIVE_ITEMS = 16
const KEY_CHARS = 24
// Records: up to this many keys (no guard caps an object's keys).
const RECORD_KEYS = 100

type Arb = Arbitrary<unknown>
type Gen = Arb | undefined

const deeper = (ctx: GenContext, key: string | number): GenContext => ({
  ...ctx,
  at: `${ctx.at}.${key}`,
})

/** A node's candidates kept to what its compiled checks accept (bounded retry). */
function checked(ctx: GenContext, node: IRNode, arb: Gen): Gen {
  if (arb === undefined) return undefined
  const accepts = irAccepts(node)
  if (accepts === undefined) return arb
  return boundedFilter(ctx.fc, arb, accepts, `valid values at ${ctx.at}`)
}

/** Small JSON values with plain keys, for `unknown` and what only the library knows. */
export function jsonish(fc: FC): Arb {
  const scalar = fc.oneof(
    fc.constantFrom(null, true, false, 0, 1, -1, 2.5, '', 'x'),
    fc.string({ maxLength: 6 }),
    fc.integer({ min: -100, max: 100 }),
  )
  return fc.oneof(
    { arbitrary: scalar, weight: 4 },
    fc.array(scalar, { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'id', 'name'), scalar, {
      maxKeys: 3,
      noNullPrototype: true,
    }),
  )
}

function objectArb(n: IRObject, outer: GenContext): Gen {
  const ctx = share(outer, n.properties.length + 1)
  const { fc } = ctx
  const model: Record<string, Arb> = {}
  const required: string[] = []
  for (const p of n.properties) {
    if (reservedKeys.has(p.key)) continue
    const value = gen(p.value, deeper(ctx, p.key))
    if (p.presence === 'required') {
      if (value === undefined) return undefined
      required.push(p.key)
    }
    // Past the recursion limit an optional property is left out: it may be what recurses.
    if (value !== undefined && (p.presence === 'required' || ctx.rounds < maxRounds(ctx)))
      model[p.key] = value
  }
  const declared = new Set(n.properties.map((p) => p.key))
  const base = fc.record(model, { requiredKeys: required, noNullPrototype: true })
  const extraValue =
    n.unknownKeys === 'catchall' && n.catchall
      ? gen(n.catchall, deeper(ctx, '*'))
      : n.unknownKeys === 'strip'
        ? jsonish(fc)
        : undefined
  if (extraValue === undefined) return base
  // Unknown keys the schema strips (or its catch-all validates) are valid input too.
  const names = ['extra', 'note', 'x_unknown', 'meta'].filter((k) => !declared.has(k))
  if (names.length === 0) return base
  const extraKey = fc.constantFrom(...names)
  const extras = fc.dictionary(extraKey, extraValue, { maxKeys: 2, noNullPrototype: true })
  return fc
    .tuple(base, fc.option(extras, { nil: undefined, freq: 3 }))
    .map(([o, x]) => (x === undefined ? o : { ...x, ...(o as object) }))
}

/** Where a record's keys are generated: short ones (a long key travels in a 422's field name). */
export const keyContext = (ctx: GenContext): GenContext => ({ ...ctx, budget: KEY_CHARS })

function recordArb(n: IRRecord, ctx: GenContext): Gen {
  const { fc } = ctx
  const value = gen(n.value, share(deeper(ctx, '*'), 3))
  if (value === undefined) return fc.constant({})
  const listed =
    n.key.kind === 'enum' || n.key.kind === 'literal'
      ? n.key.values.filter((v): v is string => typeof v === 'string')
      : undefined
  // A record keyed by an enum: every key present (zod requires them all; others accept it).
  if (listed)
    return fc.record(Object.fromEntries(listed.map((k) => [k, value])), { noNullPrototype: true })
  const key = gen(n.key, keyContext(deeper(ctx, '(key)')))
  if (key === undefined) return fc.constant({})
  const keys = boundedFilter(
    fc,
    key,
    (k) => typeof k === 'string' && !reservedKeys.has(k),
    `keys at ${ctx.at}`,
  ) as Arbitrary<string>
  const few = fc.dictionary(keys, value, { maxKeys: 3, noNullPrototype: true })
  if (ctx.rounds > 0) return few
  // Many keys too: each value then gets a smaller share of the budget.
  const most = Math.min(RECORD_KEYS, Math.max(32, Math.floor(budgetOf(ctx) / 32)))
  const wide = gen(n.value, share(deeper(ctx, '*'), most))
  if (wide === undefined || most <= 3) return few
  // Shrunk by its count alone: shrinking each of a hundred keys took thousands of requests.
  const many = fc.dictionary(fc.noShrink(keys), fc.noShrink(wide), {
    maxKeys: most,
    size: 'max',
    noNullPrototype: true,
  })
  return fc.oneof({ withCrossShrink: true }, { arbitrary: few, weight: 3 }, many)
}

const often = (fc: FC, arb: Gen, rare: unknown): Arb =>
  arb === undefined
    ? fc.constant(rare)
    : fc.oneof({ arbitrary: arb, weight: 4 }, { arbitrary: fc.constant(rare), weight: 1 })

const valid: Visitor<Gen, GenContext> = {
  string: (n, ctx) => {
    const { min, max } = stringBounds(n)
    const caps = ctx.caps
    if (caps !== undefined && min > caps.string)
      return leaveOut(
        ctx,
        `every valid string has at least ${min} characters, past ${caps.stringBy}`,
      )
    // A declared bound is reached in full (up to the caps); an unbounded string stays in budget.
    const reach = Math.min(reachOf(ctx).string, max ?? budgetOf(ctx))
    return checked(ctx, n, stringCandidates(ctx.fc, n, reach))
  },
  number: (n, ctx) => checked(ctx, n, numberCandidates(ctx.fc, n)),
  bigint: (n, ctx) => checked(ctx, n, bigintCandidates(ctx.fc, n)),
  date: (n, ctx) => checked(ctx, n, dateCandidates(ctx.fc, n)),
  boolean: (_n, ctx) => ctx.fc.boolean(),
  literal: (n, ctx) => (n.values.length > 0 ? ctx.fc.constantFrom(...n.values) : undefined),
  enum: (n, ctx) => (n.values.length > 0 ? ctx.fc.constantFrom(...n.values) : undefined),
  null: (_n, ctx) => ctx.fc.constant(null),
  undefined: (_n, ctx) => ctx.fc.constant(undefined),
  nan: (_n, ctx) => ctx.fc.constant(Number.NaN),
  unknown: (_n, ctx) => jsonish(ctx.fc),
  never: () => undefined,
  array: (n, ctx) => {
    const min = n.minItems ?? 0
    const cap = reachOf(ctx).array
    if (min > cap)
      return leaveOut(ctx, `every valid array has at least ${min} items, past ${ctx.caps!.arrayBy}`)
    const near = Math.min(n.maxItems ?? min + 4, min + 4)
    const item = gen(n.item, share(deeper(ctx, '*'), near))
    if (item === undefined) return min === 0 ? ctx.fc.constant([]) : undefined
    // Inside a recursion an array goes on (often one item: a spine) until the last round.
    if (ctx.rounds > 0) {
      const some = ctx.fc.array(item, { minLength: min, maxLength: Math.min(near, min + 2) })
      if (near === min) return some
      return ctx.fc.oneof(some, ctx.fc.array(item, { minLength: min + 1, maxLength: min + 1 }))
    }
    // Wide arrays up to the schema's bound (the guards' cap), their items on a smaller budget.
    // A recursion's wide array holds whole subtrees: a few of them.
    const most = ctx.recursions.size > 0 ? RECURSIVE_ITEMS : cap
    const unbounded = Math.max(min, Math.floor(budgetOf(ctx) / 8))
    const top = Math.min(n.maxItems ?? unbounded, cap, most)
    const wide = top > near ? gen(n.item, share(deeper(ctx, '*'), top)) : item
    return arraysOf(ctx.fc, item, min, Math.max(min, top), wide ?? item, near - min)
  },
  set: (n, ctx) => {
    const min = n.minItems ?? 0
    const item = gen(n.item, deeper(ctx, '*'))
    if (item === undefined) return min === 0 ? ctx.fc.constant(new Set()) : undefined
    const max = Math.min(n.maxItems ?? min + 3, min + 3)
    return ctx.fc
      .uniqueArray(item, { minLength: min, maxLength: max, comparator: 'SameValueZero' })
      .map((xs) => new Set(xs))
  },
  object: objectArb,
  record: recordArb,
  tuple: (n, ctx) => {
    const items = n.items.map((item, i) => gen(item, deeper(ctx, i)))
    if (items.some((a) => a === undefined)) return undefined
    const head = ctx.fc.tuple(...(items as Arb[]))
    const rest = n.rest && gen(n.rest, deeper(ctx, '*'))
    if (rest === undefined) return head
    return ctx.fc.tuple(head, ctx.fc.array(rest, { maxLength: 2 })).map(([h, r]) => [...h, ...r])
  },
  union: (n, ctx) => {
    const options = n.options.map((o) => gen(o, ctx)).filter((a): a is Arb => a !== undefined)
    return options.length === 0 ? undefined : ctx.fc.oneof(...options)
  },
  intersection: (n, ctx) => {
    const sides = { ...ctx, inIntersection: true }
    const left = gen(n.left, sides)
    const right = gen(n.right, sides)
    if (left === undefined || right === undefined) return undefined
    const merged = ctx.fc.tuple(left, right).map(([a, b]) => merge(a, b))
    // Each side parses the whole value: the keys one side adds must suit the other.
    return checked(
      ctx,
      n,
      boundedFilter(ctx.fc, merged, bothSidesTake(n), `valid values at ${ctx.at}`),
    )
  },
  optional: (n, ctx) => often(ctx.fc, gen(n.inner, ctx), undefined),
  nullable: (n, ctx) => often(ctx.fc, gen(n.inner, ctx), null),
  readonly: (n, ctx) => gen(n.inner, ctx),
  default: (n, ctx) =>
    ctx.inIntersection
      ? gen(n.inner, ctx)
      : often(ctx.fc, gen(n.inner, ctx), n.on === 'null' ? null : undefined),
  pipe: (n, ctx) => checked(ctx, n, gen(n.in, ctx)),
  recursive: (n, ctx) => {
    const recursions = new Map(ctx.recursions).set(n.id, n)
    return gen(n.node, { ...ctx, recursions })
  },
  ref: (n, ctx) => {
    const target = ctx.recursions.get(n.id)
    if (target === undefined || ctx.rounds > maxRounds(ctx)) return undefined
    return gen(target.node, { ...ctx, rounds: ctx.rounds + 1 })
  },
  // Only the library knows: candidates from what the IR knows of its input, filtered at the root.
  native: (n, ctx) => (n.inner ? gen(n.inner, ctx) : jsonish(ctx.fc)),
}

/**
 * Values an IR node accepts, as a fast-check arbitrary, or undefined when it accepts none
 * (`never`, an impossible combination). Leaves are filtered by the node's compiled checks;
 * what only the library can check (native nodes) is left to the caller's filter.
 */
export function gen(node: IRNode, ctx: GenContext): Gen {
  return visit(node, valid, ctx)
}

/** This module's IR tables, for the test that each has a handler for every kind. */
export const tables = { valid }
