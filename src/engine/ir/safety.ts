import type { IRKind, IRNode, Safety } from './types.js'
import { each, kinds, type Visitor, visit, wrapperKinds } from './visit.js'

/** Input of `withSafety`: a node whose safety class is computed (or forced when given). */
export type Draft<N extends IRNode> = N extends IRNode
  ? Omit<N, 'safety'> & { readonly safety?: Safety }
  : never

const rank: Record<Safety, number> = { exact: 0, stricter: 1, native: 2 }

/** The weaker of safety classes (native over stricter over exact). */
export function worst(...classes: Safety[]): Safety {
  let out: Safety = 'exact'
  for (const c of classes) if (rank[c] > rank[out]) out = c
  return out
}

/** The kinds compiled as one leaf predicate (with optional coercion and value-changing steps). */
export const LEAF_KINDS = [
  'string',
  'number',
  'bigint',
  'boolean',
  'date',
  'literal',
  'enum',
  'null',
  'nan',
] as const satisfies readonly IRKind[]

/** `LEAF_KINDS` as a set, for lookups by a node's kind. */
export const leafKinds: ReadonlySet<string> = new Set(LEAF_KINDS)

const yes = () => true
const no = () => false

const undefinedAccepted: Visitor<boolean> = {
  default: (n) => (n.on === 'null' ? acceptsUndefined(n.inner) : true),
  ...each(['optional', 'unknown', 'undefined', 'native'], yes),
  ...each(['string', 'boolean'], (n) => n.coerce !== false),
  literal: (n) => n.values.includes(undefined),
  ...each(['nullable', 'readonly'], (n) => acceptsUndefined(n.inner)),
  pipe: (n) => acceptsUndefined(n.in),
  recursive: (n) => acceptsUndefined(n.node),
  union: (n) => n.options.some(acceptsUndefined),
  intersection: (n) => acceptsUndefined(n.left) && acceptsUndefined(n.right),
  // A ref's target never accepts undefined: `recursive` makes such a target native.
  ...each(kinds('number bigint date enum null nan never array object record tuple set ref'), no),
}

/** Whether the library's parser accepts `undefined` here (conservative: true when unsure). */
export function acceptsUndefined(node: IRNode): boolean {
  return visit(node, undefinedAccepted, undefined)
}

const identity: Visitor<boolean> = {
  string: (n) => !n.coerce && n.checks.every((c) => c.kind !== 'transform' && c.kind !== 'format'),
  ...each(['number', 'bigint', 'boolean', 'date'], (n) => !n.coerce),
  ...each(['literal', 'enum', 'null', 'undefined', 'nan', 'unknown', 'never'], yes),
  ...each(['optional', 'nullable'], (n) => isIdentity(n.inner)),
  // Freezing a primitive is a no-op; a Date is an object zod freezes.
  readonly: (n) => leafKinds.has(n.inner.kind) && n.inner.kind !== 'date' && isIdentity(n.inner),
  union: (n) => n.options.every(isIdentity),
  pipe: (n) => isIdentity(n.in) && isIdentity(n.out),
  ...each(kinds('array object record tuple set intersection default recursive ref native'), no),
}

/** Whether an accepted input is its own output (no copy, coercion, default or normalisation). */
export function isIdentity(node: IRNode): boolean {
  return visit(node, identity, undefined)
}

// An item that accepts undefined is seen by ajv as a present value it rejects: only stricter.
function positional(node: IRNode): Safety {
  return node.kind !== 'unknown' && acceptsUndefined(node)
    ? worst(node.safety, 'stricter')
    : node.safety
}

const ownClass: Visitor<Safety> = {
  number: (n) => (n.checks.some((c) => c.kind === 'multiple_of') ? 'stricter' : 'exact'),
  undefined: () => 'stricter',
  ...each(['set', 'native'], () => 'native'),
  array: (n) => positional(n.item),
  tuple: (n) =>
    // A fixed item that accepts undefined (`unknown` too) may be missing for the library,
    // while the compiled check demands every fixed item: only stricter.
    worst(
      ...n.items.map((i) => (acceptsUndefined(i) ? worst(i.safety, 'stricter') : i.safety)),
      n.rest ? positional(n.rest) : 'exact',
    ),
  record: (n) => worst(n.key.safety, positional(n.value)),
  object: (n) =>
    worst(
      ...n.properties.map((p) =>
        p.presence === 'required' && acceptsUndefined(p.value)
          ? worst(p.value.safety, 'stricter')
          : p.value.safety,
      ),
      n.catchall ? positional(n.catchall) : 'exact',
    ),
  union: (n) => {
    if (n.options.some(acceptsUndefined)) return 'native'
    if (n.discriminator !== undefined) return worst(...n.options.map((o) => o.safety))
    // First match wins: an earlier option that rejects too much would hand the value to a later one.
    const last = n.options.length - 1
    const early = n.options.slice(0, last).map((o) => (o.safety === 'exact' ? 'exact' : 'native'))
    return worst(...early, n.options[last]?.safety ?? 'exact')
  },
  intersection: (n) => worst(n.left.safety, n.right.safety, 'stricter'),
  ...each(wrapperKinds, (n) => n.inner.safety),
  pipe: (n) => {
    const chain = leafKinds.has(n.in.kind) && leafKinds.has(n.out.kind)
    if (!isIdentity(n.in) && !chain) return 'native'
    return worst(n.in.safety, n.out.safety)
  },
  recursive: (n) => (n.node.safety === 'exact' && !acceptsUndefined(n.node) ? 'exact' : 'native'),
  ...each(
    kinds('string bigint boolean date literal enum null nan unknown never ref'),
    () => 'exact',
  ),
}

// The draft's own safety is not read here: only its children's, which are complete nodes.
function computed(node: Draft<IRNode>): Safety {
  return visit(node as IRNode, ownClass, undefined)
}

/**
 * Completes a draft node with its safety class: the worst of the class it was given and the class
 * its children and its own semantics impose.
 * @example withSafety({ kind: 'array', item: stringNode }) // → { kind: 'array', …, safety: 'exact' }
 */
export function withSafety<N extends IRNode>(draft: Draft<N>): N {
  const safety = worst(draft.safety ?? 'exact', computed(draft as Draft<IRNode>))
  return { ...draft, safety } as unknown as N
}

/** This module's IR tables, for the test that each has a handler for every kind. */
export const tables = { undefinedAccepted, identity, ownClass }
