import type { IRBound, IRNode } from '../../engine/ir/types.js'
import {
  arrayAction,
  boundAction,
  type NumberState,
  numberAction,
  stringAction,
  type ValibotItem,
} from './actions.js'
import { native, node, numberNode, stringNode } from './nodes.js'

// A plain `v.string()` / `v.number()` inside a pipe re-checks the type the value already has
// (the IR's finite numbers exclude NaN too).
const sameType = (a: ValibotItem, type: string) =>
  a.kind === 'schema' && a.type === type && !a.pipe && a.fallback === undefined

/** Applies a pipe's actions to the IR of its head schema: checks the IR can hold, else native. */
export function applyActions(base: IRNode, actions: ValibotItem[]): IRNode {
  if (actions.length === 0) return base
  const fail = (a: ValibotItem) =>
    native(
      a.kind === 'transformation' ? 'transform' : a.type === 'check' ? 'refine' : 'check',
      base,
    )
  switch (base.kind) {
    case 'string': {
      const checks = [...base.checks]
      for (const [i, a] of actions.entries()) {
        if (sameType(a, 'string')) continue
        if (a.kind === 'transformation' && a.type === 'to_number') {
          // `Number(s)`, NaN rejected: a string-to-number leaf chain.
          const out = applyActions(
            numberNode({ integer: false, checks: [] }, true),
            actions.slice(i + 1),
          )
          if (out.kind !== 'number') return native('transform', base)
          return node({ kind: 'pipe', in: stringNode(checks), out })
        }
        const c = stringAction(a)
        if (!c) return fail(a)
        checks.push(c)
      }
      return stringNode(checks)
    }
    case 'number': {
      const s: NumberState = {
        integer: base.integer,
        ...(base.format !== undefined ? { format: base.format } : {}),
        checks: [...base.checks],
      }
      for (const a of actions) if (!sameType(a, 'number') && !numberAction(a, s)) return fail(a)
      return numberNode(s, base.coerce === true)
    }
    case 'bigint':
    case 'date': {
      const checks = [...base.checks] as IRBound<never>[]
      for (const a of actions) if (!boundAction(a, checks, base.kind === 'date')) return fail(a)
      return node({ ...base, checks, safety: undefined } as never)
    }
    case 'array': {
      const len: { minItems?: number; maxItems?: number } = {
        ...(base.minItems !== undefined ? { minItems: base.minItems } : {}),
        ...(base.maxItems !== undefined ? { maxItems: base.maxItems } : {}),
      }
      for (const a of actions) if (!arrayAction(a, len)) return fail(a)
      return node({ kind: 'array', item: base.item, ...len })
    }
    default:
      return fail(actions[0]!)
  }
}
