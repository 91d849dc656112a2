import type { IRNode } from '../../engine/ir/types.js'
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
  switch (node.kind) {
    case 'default': {
      const inner = examplesOf(node.inner, base, depth + 1)
      return inner.length > 0 || node.value === undefined ? inner : [node.value]
    }
    case 'optional':
    case 'nullable':
    case 'readonly':
      return examplesOf(node.inner, base, depth + 1)
    case 'pipe':
      return examplesOf(node.in, base, depth + 1)
    case 'recursive':
      return examplesOf(node.node, base, depth + 1)
    case 'native':
      return node.inner ? examplesOf(node.inner, base, depth + 1) : []
    case 'intersection':
      return [
        ...examplesOf(node.left, base, depth + 1),
        ...examplesOf(node.right, base, depth + 1),
      ].slice(0, MOST)
    case 'union':
      for (const option of node.options) {
        const found = examplesOf(option, undefined, depth + 1)
        if (found.length > 0) return found
      }
      return []
    case 'array': {
      const items = Array.isArray(base) ? base : []
      return examplesOf(node.item, items[0], depth + 1).map((x) => [x, ...items.slice(1)])
    }
    case 'object': {
      const o = isObject(base) ? base : {}
      const fields = node.properties.map(
        (p) => [p.key, examplesOf(p.value, o[p.key], depth + 1)] as const,
      )
      const found = fields.filter(([, xs]) => xs.length > 0)
      if (found.length === 0) return []
      const whole = { ...o, ...Object.fromEntries(found.map(([k, xs]) => [k, xs[0]])) }
      const more = found.flatMap(([k, xs]) => xs.slice(1).map((x) => ({ ...whole, [k]: x })))
      return [whole, ...more].slice(0, MOST)
    }
    default:
      return []
  }
}
