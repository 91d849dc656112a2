import type { IRNode, IRUnion } from '../../engine/ir/types.js'
import { each, kinds, type Visitor, visit, wrapperKinds } from '../../engine/ir/visit.js'
import { isObject } from '../../shared/is-object.js'
import { irAccepts } from '../arbitrary/ir-accepts.js'

// What a schema offers a test to exercise, named from the schema alone (never from a value):
// `body.role = "admin"` (an enum member), `body.payment | card` (a union branch),
// `body.nickname?` (an optional field). One walk lists them all (no value) or those a value
// exercises.

/** The kind of a coverage item: an enum member, a union branch, an optional field. */
export type ItemKind = 'enums' | 'branches' | 'optionals'

interface Walk {
  readonly path: string
  /** The value being walked; `all` walks list every item instead. */
  readonly value: unknown
  readonly all: boolean
  readonly found: Map<string, ItemKind>
  /** The recursive schemas around the node, with the path each was met at. */
  readonly recursions: Map<string, { readonly node: IRNode; readonly path: string }>
  readonly depth: number
  /** Nodes left to visit for this value: a large payload costs a bounded walk. */
  budget: { left: number }
}

// A value's walk looks at this many items of each array, record or set, and this many nodes.
const ITEMS = 64
const NODES = 5000
const DEPTH = 32

/** A member as an item names it: JSON for strings, numbers, booleans and null. */
export function memberLabel(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`
  if (value === undefined) return 'undefined'
  return Number.isNaN(value) ? 'NaN' : JSON.stringify(value)
}

function at(w: Walk, node: IRNode, path: string, value: unknown): void {
  if (w.depth >= DEPTH || (!w.all && w.budget.left-- <= 0)) return
  visit(node, table, { ...w, path, value, depth: w.depth + 1 })
}

function members(w: Walk, values: readonly unknown[]): void {
  if (w.all) for (const v of values) w.found.set(`${w.path} = ${memberLabel(v)}`, 'enums')
  else if (values.includes(w.value)) w.found.set(`${w.path} = ${memberLabel(w.value)}`, 'enums')
}

function several(w: Walk, node: IRNode, path: string, values: Iterable<unknown>): void {
  if (w.all) {
    at(w, node, path, undefined)
    return
  }
  let n = 0
  for (const v of values) {
    if (n++ === ITEMS) return
    at(w, node, path, v)
  }
}

/** The values a discriminated union's option takes at its discriminator. */
function tagsOf(node: IRNode, key: string): readonly unknown[] {
  if (node.kind === 'optional' || node.kind === 'readonly' || node.kind === 'default')
    return tagsOf(node.inner, key)
  if (node.kind === 'pipe') return tagsOf(node.in, key)
  if (node.kind !== 'object') return []
  const tag = node.properties.find((p) => p.key === key)?.value
  return tag?.kind === 'literal' || tag?.kind === 'enum' ? tag.values : []
}

/** How a union's option is named: its discriminator's value, its one literal, or its index. */
function branchLabel(node: IRUnion, i: number): string {
  const option = node.options[i]!
  const tags = node.discriminator === undefined ? [] : tagsOf(option, node.discriminator)
  if (tags.length === 1) return String(tags[0])
  if (option.kind === 'literal' && option.values.length === 1) return memberLabel(option.values[0])
  return `#${i}`
}

/** The option a value takes: the discriminator's, else the first whose IR accepts it. */
function branchOf(node: IRUnion, value: unknown): number | undefined {
  const key = node.discriminator
  if (key !== undefined && isObject(value) && Object.hasOwn(value, key)) {
    const i = node.options.findIndex((o) => tagsOf(o, key).includes(value[key]))
    if (i >= 0) return i
  }
  for (let i = 0; i < node.options.length; i++) {
    const accepts = irAccepts(node.options[i]!)
    // Only the library could tell (a refinement, a recursion): no branch is claimed.
    if (accepts === undefined) return undefined
    if (accepts(value)) return i
  }
  return undefined
}

const nothing = () => {}

const table: Visitor<void, Walk> = {
  literal: (n, w) => (n.values.length > 1 ? members(w, n.values) : undefined),
  enum: (n, w) => members(w, n.values),
  array: (n, w) => several(w, n.item, `${w.path}[]`, Array.isArray(w.value) ? w.value : []),
  set: (n, w) => several(w, n.item, `${w.path}[]`, w.value instanceof Set ? w.value : []),
  record: (n, w) =>
    several(w, n.value, `${w.path}{}`, isObject(w.value) ? Object.values(w.value) : []),
  object: (n, w) => {
    const value = isObject(w.value) ? w.value : undefined
    if (!w.all && value === undefined) return
    for (const p of n.properties) {
      const path = `${w.path}.${p.key}`
      const v = value !== undefined && Object.hasOwn(value, p.key) ? value[p.key] : undefined
      if (p.presence === 'optional' && (w.all || v !== undefined))
        w.found.set(`${path}?`, 'optionals')
      if (w.all || v !== undefined) at(w, p.value, path, v)
    }
  },
  tuple: (n, w) => {
    const value = Array.isArray(w.value) ? w.value : undefined
    if (!w.all && value === undefined) return
    n.items.forEach((item, i) => {
      at(w, item, `${w.path}[${i}]`, value?.[i])
    })
    if (n.rest !== undefined)
      several(w, n.rest, `${w.path}[]`, value?.slice(n.items.length, n.items.length + ITEMS) ?? [])
  },
  union: (n, w) => {
    const chosen = w.all ? undefined : branchOf(n, w.value)
    n.options.forEach((option, i) => {
      if (!w.all && i !== chosen) return
      const branch = `${w.path} | ${branchLabel(n, i)}`
      w.found.set(branch, 'branches')
      at(w, option, branch, w.value)
    })
  },
  intersection: (n, w) => {
    at(w, n.left, w.path, w.value)
    at(w, n.right, w.path, w.value)
  },
  ...each(wrapperKinds, (n, w) =>
    w.all || (w.value !== undefined && w.value !== null)
      ? at(w, n.inner, w.path, w.value)
      : undefined,
  ),
  pipe: (n, w) => at(w, n.in, w.path, w.value),
  recursive: (n, w) => {
    if (w.all && w.recursions.has(n.id)) return
    w.recursions.set(n.id, { node: n.node, path: w.path })
    at(w, n.node, w.path, w.value)
  },
  // Listing stops at a reference (its items are those of the recursion around it); a value's
  // walk goes on under the recursion's own names.
  ref: (n, w) => {
    const around = w.recursions.get(n.id)
    if (!w.all && around !== undefined) at(w, around.node, around.path, w.value)
  },
  native: (n, w) => (n.inner === undefined ? undefined : at(w, n.inner, w.path, w.value)),
  ...each(kinds('string number bigint boolean date null undefined nan unknown never'), nothing),
}

function walk(ir: IRNode, part: string, value: unknown, all: boolean): Map<string, ItemKind> {
  const found = new Map<string, ItemKind>()
  const w: Walk = {
    path: part,
    value,
    all,
    found,
    recursions: new Map(),
    depth: 0,
    budget: { left: NODES },
  }
  at(w, ir, part, value)
  return found
}

/**
 * Every enum member, union branch and optional field of a schema's IR, named under `part`
 * (`body`, `query`, `response`…), with its kind.
 * @example itemsOf(ir, 'body') // Map { 'body.role = "admin"' => 'enums', … }
 */
export function itemsOf(ir: IRNode, part: string): Map<string, ItemKind> {
  return walk(ir, part, undefined, true)
}

/**
 * The items of `itemsOf(ir, part)` that `value` exercises: the members it holds, the branches
 * it takes, the optional fields it has; a bounded walk (64 items of a list, 5,000 nodes).
 */
export function hitsOf(ir: IRNode, part: string, value: unknown): Map<string, ItemKind> {
  return walk(ir, part, value, false)
}

/** This module's IR table, for the test that it has a handler for every kind. */
export const tables = { table }
