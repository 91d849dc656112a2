import type { ItemBounds } from '../../engine/ir/bounds.js'
import type { IRBound, IRNode } from '../../engine/ir/types.js'
import { each, type Visitor, visitSome } from '../../engine/ir/visit.js'
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

interface Pipe {
  readonly actions: ValibotItem[]
  /** The node for an action the IR cannot hold: valibot runs the whole pipe. */
  fail(a: ValibotItem): IRNode
}

const appliers: Partial<Visitor<IRNode, Pipe>> = {
  string: (base, { actions, fail }) => {
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
  },
  number: (base, { actions, fail }) => {
    const s: NumberState = {
      integer: base.integer,
      ...(base.format !== undefined ? { format: base.format } : {}),
      checks: [...base.checks],
    }
    for (const a of actions) if (!sameType(a, 'number') && !numberAction(a, s)) return fail(a)
    return numberNode(s, base.coerce === true)
  },
  ...each(['bigint', 'date'], (base, { actions, fail }) => {
    const checks = [...base.checks] as IRBound<never>[]
    for (const a of actions) if (!boundAction(a, checks, base.kind === 'date')) return fail(a)
    return node({ ...base, checks, safety: undefined } as never)
  }),
  array: (base, { actions, fail }) => {
    const len: ItemBounds = {
      ...(base.minItems !== undefined ? { minItems: base.minItems } : {}),
      ...(base.maxItems !== undefined ? { maxItems: base.maxItems } : {}),
    }
    for (const a of actions) if (!arrayAction(a, len)) return fail(a)
    return node({ kind: 'array', item: base.item, ...len })
  },
}

/** Applies a pipe's actions to the IR of its head schema: checks the IR can hold, else native. */
export function applyActions(base: IRNode, actions: ValibotItem[]): IRNode {
  if (actions.length === 0) return base
  const fail = (a: ValibotItem) =>
    native(
      a.kind === 'transformation' ? 'transform' : a.type === 'check' ? 'refine' : 'check',
      base,
    )
  return visitSome(base, appliers, () => fail(actions[0]!), { actions, fail })
}
