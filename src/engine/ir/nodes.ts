import { type Draft, withSafety } from './safety.js'
import type { IRNode, NativeReason } from './types.js'

/**
 * An IR node from its parts, its safety computed from its kind and children.
 * @example irNode({ kind: 'boolean', coerce: false })
 */
export const irNode = <N extends IRNode>(draft: Draft<N>): N => withSafety(draft)

/**
 * A node only the library can run: `inner` describes the accepted input for docs when known,
 * `output` the produced value, `detail` the library's own name for an `unsupported` kind.
 * @example nativeNode('refine', irNode({ kind: 'string', coerce: false, lengthUnit: 'code-point', checks: [] }))
 */
export function nativeNode(
  reason: NativeReason,
  inner?: IRNode,
  output?: IRNode,
  detail?: string,
): IRNode {
  return irNode({
    kind: 'native',
    reason,
    ...(inner ? { inner } : {}),
    ...(output ? { output } : {}),
    ...(detail ? { detail } : {}),
  })
}
