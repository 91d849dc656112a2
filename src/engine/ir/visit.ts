import type { IRKind, IRNode } from './types.js'

/** The node type of one kind (`NodeOf<'optional'>` is `IRWrapper`). */
export type NodeOf<K extends IRKind> = IRNode extends infer N
  ? N extends IRNode
    ? K extends N['kind']
      ? N
      : never
    : never
  : never

/**
 * One handler per IR kind: the table a traversal dispatches on. The compiler, the JSON Schema
 * writer and every analysis of the IR are such tables, so a kind added to the IR is a type error
 * in each of them until it is handled. `C` is what the traversal carries (a writer, a depth).
 */
export type Visitor<R, C = undefined> = {
  readonly [K in IRKind]: (node: NodeOf<K>, ctx: C) => R
}

type Handler<R, C> = (node: IRNode, ctx: C) => R

// An adapter may hand over IR it wrote itself: a kind no table knows finds no handler (never one
// inherited from Object.prototype).
function handlerOf<R, C>(visitor: Partial<Visitor<R, C>>, kind: string): Handler<R, C> | undefined {
  return Object.hasOwn(visitor, kind) ? (visitor[kind as IRKind] as Handler<R, C>) : undefined
}

/**
 * Runs the handler of the node's kind; throws on a kind the IR does not have.
 * @example visit(node, { string: () => 'text', …every other kind }, undefined)
 */
export function visit<R, C>(node: IRNode, visitor: Visitor<R, C>, ctx: C): R {
  const handler = handlerOf(visitor, node.kind)
  if (handler === undefined) throw new TypeError(`unknown IR kind: ${String(node.kind)}`)
  return handler(node, ctx)
}

/**
 * Runs the handler of the node's kind when the table has one, else `otherwise`. A partial table
 * is not told of a kind added to the IR: the engine's tables are full ones, run by `visit`.
 */
export function visitSome<R, C>(
  node: IRNode,
  visitor: Partial<Visitor<R, C>>,
  otherwise: (node: IRNode, ctx: C) => R,
  ctx: C,
): R {
  const handler = handlerOf(visitor, node.kind)
  return handler === undefined ? otherwise(node, ctx) : handler(node, ctx)
}

/**
 * The same handler for several kinds, to spread into a table.
 * @example { ...each(wrapperKinds, (n) => visit(n.inner, table, ctx)), … }
 */
export function each<K extends IRKind, R, C>(
  list: readonly K[],
  handler: (node: NodeOf<K>, ctx: C) => R,
): { readonly [P in K]: (node: NodeOf<P>, ctx: C) => R } {
  return Object.fromEntries(list.map((k) => [k, handler])) as never
}

type Words<S extends string> = S extends `${infer W} ${infer Rest}` ? W | Words<Rest> : S
type KindList<S extends string> = [Exclude<Words<S>, IRKind>] extends [never]
  ? unknown
  : { readonly notAKind: Exclude<Words<S>, IRKind> }

/**
 * Kinds named in one space-separated string, each word checked to be a kind: how a full table
 * lists the kinds that share one handler, in a line rather than one a line.
 * @example { string: write, ...each(kinds('null nan never'), nothing) }
 */
export function kinds<S extends string>(list: S & KindList<S>): Words<S>[] {
  return list.split(' ') as Words<S>[]
}

/** The kinds that hold one `inner` node standing in their place. */
export const wrapperKinds = ['optional', 'nullable', 'readonly', 'default'] as const

/**
 * A child of a node and the edge to it: the property key or tuple index of a value inside it,
 * `*` for items at any index or key (array, set, record and catch-all values), `undefined` for a
 * child that stands in the node's own place (wrappers, union options, pipe parts).
 */
export interface IREdge {
  readonly key: string | number | undefined
  readonly node: IRNode
}

const none: readonly IREdge[] = []
const here = (node: IRNode): IREdge => ({ key: undefined, node })
const present = (edges: (IREdge | false | undefined)[]): IREdge[] =>
  edges.filter((e): e is IREdge => e !== false && e !== undefined)

const edges: Visitor<readonly IREdge[]> = {
  object: (n) =>
    present([
      ...n.properties.map((p) => ({ key: p.key, node: p.value })),
      n.catchall && { key: '*', node: n.catchall },
    ]),
  array: (n) => [{ key: '*', node: n.item }],
  set: (n) => [{ key: '*', node: n.item }],
  // The key schema constrains names, not a value: it is a child with no edge of its own.
  record: (n) => [here(n.key), { key: '*', node: n.value }],
  tuple: (n) =>
    present([
      ...n.items.map((node, i) => ({ key: i, node })),
      n.rest && { key: '*', node: n.rest },
    ]),
  union: (n) => n.options.map(here),
  intersection: (n) => [here(n.left), here(n.right)],
  pipe: (n) => [here(n.in), here(n.out)],
  ...each(wrapperKinds, (n) => [here(n.inner)]),
  recursive: (n) => [here(n.node)],
  native: (n) => present([n.inner && here(n.inner), n.output && here(n.output)]),
  ...each(
    kinds('string number bigint boolean date literal enum null undefined nan unknown never ref'),
    () => none,
  ),
}

/**
 * The direct children of a node, in declaration order, with their edges.
 * @example children(objectNode) // [{ key: 'name', node: stringNode }, …]
 */
export function children(node: IRNode): readonly IREdge[] {
  // IR an adapter wrote itself may hold a kind the IR does not have: it has no children.
  return visitSome(node, edges, () => none, undefined)
}

/** This module's IR tables, for the test that each has a handler for every kind. */
export const tables = { edges }
