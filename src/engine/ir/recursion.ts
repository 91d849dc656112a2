import { irNode } from './nodes.js'
import type { IRNode } from './types.js'

/** The library schemas being translated, each with the id its `ref` nodes use. */
export class Recursion<S> {
  private readonly active = new Map<S, { readonly id: string; used: boolean }>()
  private next = 0

  /**
   * Translates `schema` with `convert`, once per path: a schema met again inside itself becomes a
   * `ref` node, and the outer translation then a `recursive` node with the same id.
   * @example recursion.enter(schema, () => table[kind](schema))
   */
  enter(schema: S, convert: () => IRNode): IRNode {
    const seen = this.active.get(schema)
    if (seen) {
      seen.used = true
      return irNode({ kind: 'ref', id: seen.id })
    }
    const entry = { id: `Schema${++this.next}`, used: false }
    this.active.set(schema, entry)
    let ir: IRNode
    try {
      ir = convert()
    } finally {
      this.active.delete(schema)
    }
    return entry.used ? irNode({ kind: 'recursive', id: entry.id, node: ir }) : ir
  }
}
