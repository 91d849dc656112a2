import { defineAdapter } from '../../engine/adapter.js'
import { compile } from '../../engine/compile/compile.js'
import { compileLeaf, FAIL } from '../../engine/compile/leaf.js'
import { leafKinds } from '../../engine/ir/safety.js'
import type { IRNode } from '../../engine/ir/types.js'
import { children } from '../../engine/ir/visit.js'

/** Whether a node (not native, no reference to an enclosing recursion) compiles on its own. */
function standalone(node: IRNode): boolean {
  if (node.safety === 'native' || node.kind === 'ref') return false
  return children(node).every((e) => standalone(e.node))
}

const isLeafPipe = (node: IRNode): boolean =>
  leafKinds.has(node.kind) || (node.kind === 'pipe' && isLeafPipe(node.in) && isLeafPipe(node.out))

const cache = new WeakMap<IRNode, ((x: unknown) => boolean) | null>()
const failing = () => ({ success: false as const, issues: [] })

/**
 * What the IR of a node accepts, as the engine's compiled path decides it (a leaf runner, or the
 * compiled check of a standalone subtree), or undefined where only the library can tell (native
 * nodes, recursion). Compiled once per node. Stricter than the library at worst, never looser.
 * @example irAccepts(stringNode)?.('abc') // → true when the node's checks pass
 */
export function irAccepts(node: IRNode): ((x: unknown) => boolean) | undefined {
  const hit = cache.get(node)
  if (hit !== undefined) return hit ?? undefined
  let accepts: ((x: unknown) => boolean) | null = null
  if (isLeafPipe(node) && node.safety !== 'native') {
    const run = compileLeaf(node)
    accepts = (x) => run(x) !== FAIL
  } else if (standalone(node)) {
    // The engine's compiled path; a rejection falls to a "library" that rejects everything.
    const validator = compile(
      defineAdapter({ library: 'ir', schema: node, ir: node, async: false, parse: failing }),
    )
    if (validator.compiled)
      accepts = (x) => (validator.validate(x, false) as { success: boolean }).success
  }
  cache.set(node, accepts)
  return accepts ?? undefined
}
