import { LEAF_KINDS } from '../../engine/ir/safety.js'
import type { IRNode } from '../../engine/ir/types.js'
import { each, kinds, type Visitor, visit } from '../../engine/ir/visit.js'
import { isObject } from '../../shared/is-object.js'

// Examples past this many per schema are not each sent.
const MOST = 20

/**
 * Values of a node built from its schema's own examples (`.meta({ examples })`, valibot
 * `examples()`, yup `meta`, JSON Schema `examples`) and static defaults: the node's own examples
 * first; else, for an object, `base` with every field that has an example or a default set to its
 * first one, then each further example of a field alone. Empty when nothing inside has any.
 * @param base a valid value of the node, for what has no example
 */
export function examplesOf(node: IRNode, base: unknown, depth = 0): unknown[] {
  if (depth > 32) return []
  const own = node.meta?.examples
  if (own !== undefined && own.length > 0) return own.slice(0, MOST)
  return visit(node, table, { base, depth: depth + 1 })
}

type At = { readonly base: unknown; readonly depth: number }
const none = (): unknown[] => []

// Where each kind's examples are: its own (above), else inside it.
const table: Visitor<unknown[], At> = {
  ...each(LEAF_KINDS, none),
  ...each(kinds('unknown undefined never record tuple set ref'), none),
  default: (n, at) => {
    const inner = examplesOf(n.inner, at.base, at.depth)
    return inner.length > 0 || n.value === undefined ? inner : [n.value]
  },
  ...each(kinds('optional nullable readonly'), (n, at) => examplesOf(n.inner, at.base, at.depth)),
  pipe: (n, at) => examplesOf(n.in, at.base, at.depth),
  recursive: (n, at) => examplesOf(n.node, at.base, at.depth),
  native: (n, at) => (n.inner ? examplesOf(n.inner, at.base, at.depth) : []),
  intersection: (n, at) =>
    [...examplesOf(n.left, at.base, at.depth), ...examplesOf(n.right, at.base, at.depth)].slice(
      0,
      MOST,
    ),
  union: (n, at) => {
    for (const option of n.options) {
      const found = examplesOf(option, undefined, at.depth)
      if (found.length > 0) return found
    }
    return []
  },
  array: (n, at) => {
    const items = Array.isArray(at.base) ? at.base : []
    return examplesOf(n.item, items[0], at.depth).map((x) => [x, ...items.slice(1)])
  },
  object: (n, at) => {
    const o = isObject(at.base) ? at.base : {}
    const fields = n.properties.map(
      (p) => [p.key, examplesOf(p.value, o[p.key], at.depth)] as const,
    )
    const found = fields.filter(([, xs]) => xs.length > 0)
    if (found.length === 0) return []
    const whole = { ...o, ...Object.fromEntries(found.map(([k, xs]) => [k, xs[0]])) }
    const more = found.flatMap(([k, xs]) => xs.slice(1).map((x) => ({ ...whole, [k]: x })))
    return [whole, ...more].slice(0, MOST)
  },
}
