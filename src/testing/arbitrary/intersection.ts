import { acceptsUndefined } from '../../engine/ir/safety.js'
import type { IRIntersection, IRNode } from '../../engine/ir/types.js'
import { wrapperKinds } from '../../engine/ir/visit.js'
import { isObject } from '../../shared/is-object.js'
import { irAccepts } from './ir-accepts.js'

type Json = Record<string, unknown>

/** One value from a value of each side of an intersection: objects merged key by key, deeply. */
export function merge(a: unknown, b: unknown): unknown {
  if (!isObject(a) || !isObject(b)) return b
  const out: Json = { ...a }
  for (const [k, v] of Object.entries(b)) out[k] = k in out ? merge(out[k], v) : v
  return out
}

const wrappers: ReadonlySet<string> = new Set(wrapperKinds)

function unwrapped(node: IRNode): IRNode {
  let n = node
  for (;;) {
    if (n.kind === 'pipe') n = n.in
    else if (n.kind === 'recursive') n = n.node
    else if (wrappers.has(n.kind)) n = (n as IRNode & { inner: IRNode }).inner
    else return n
  }
}

/**
 * Whether a side of an intersection takes a value: its compiled check where it has one, else
 * what its objects say of keys (each side parses the whole merged value, so its catch-all checks
 * the other side's keys, and a key it requires must be there), below its declared properties too.
 */
function sideTakes(node: IRNode, value: unknown): boolean {
  const accepts = irAccepts(node)
  if (accepts !== undefined) return accepts(value)
  const n = unwrapped(node)
  if (n.kind !== 'object' || !isObject(value)) return true
  for (const p of n.properties)
    if (p.presence === 'required' && value[p.key] === undefined && !acceptsUndefined(p.value))
      return false
  const declared = new Map(n.properties.map((p) => [p.key, p.value]))
  for (const [key, v] of Object.entries(value)) {
    const property = declared.get(key)
    if (property !== undefined) {
      if (!sideTakes(property, v)) return false
    } else if (n.unknownKeys === 'catchall' && n.catchall && !sideTakes(n.catchall, v)) return false
  }
  return true
}

/** Whether both sides of an intersection take a merged value (as far as their IR can tell). */
export function bothSidesTake(node: IRIntersection): (value: unknown) => boolean {
  return (value) => sideTakes(node.left, value) && sideTakes(node.right, value)
}
