import type { IRNode, IRStringCheck } from '../../engine/ir/types.js'
import type { NumberState } from './actions.js'

// The IR node builders the valibot converter and its pipe actions share.

import { irNode as node } from '../../engine/ir/nodes.js'

export { irNode as node, nativeNode as native } from '../../engine/ir/nodes.js'

export function stringNode(checks: IRStringCheck[]): IRNode {
  return node({ kind: 'string', coerce: false, lengthUnit: 'utf16', checks })
}

/** valibot's `number()` accepts ±Infinity; IR numbers are finite unless a check already says so. */
export function numberNode(s: NumberState, coerce = false): IRNode {
  const lower = s.checks.some((c) => c.kind === 'gte' || c.kind === 'gt')
  const upper = s.checks.some((c) => c.kind === 'lte' || c.kind === 'lt')
  const finite =
    s.integer ||
    s.finite === true ||
    (lower && upper) ||
    s.checks.some((c) => c.kind === 'multiple_of')
  return node({
    kind: 'number',
    coerce,
    integer: s.integer,
    ...(s.format !== undefined ? { format: s.format } : {}),
    checks: s.checks,
    ...(finite ? {} : { safety: 'stricter' as const }),
  })
}
