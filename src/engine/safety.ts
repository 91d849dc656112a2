import type { IRNode, Safety } from './ir/types.js'

/** Input of `withSafety`: a node whose safety class is computed (or forced when given). */
export type Draft<N extends IRNode> = N extends IRNode
  ? Omit<N, 'safety'> & { readonly safety?: Safety }
  : never

const rank: Record<Safety, number> = { exact: 0, stricter: 1, native: 2 }

/** The weaker of safety classes (native over stricter over exact). */
export function worst(...classes: Safety[]): Safety {
  let out: Safety = 'exact'
  for (const c of classes) if (rank[c] > rank[out]) out = c
  return out
}

/** The kinds compiled as one leaf predicate (with optional coercion and value-changing steps). */
export const leafKinds: ReadonlySet<string> = new Set([
  'string',
  'number',
  'bigint',
  'boolean',
  'date',
  'literal',
  'enum',
  'null',
  'nan',
])

/** Whether the library's parser accepts `undefined` here (conservative: true when unsure). */
export function acceptsUndefined(node: IRNode): boolean {
  switch (node.kind) {
    case 'default':
      return node.on === 'null' ? acceptsUndefined(node.inner) : true
    case 'optional':
    case 'unknown':
    case 'undefined':
    case 'native':
      return true
    case 'string':
    case 'boolean':
      return node.coerce !== false
    case 'literal':
      return node.values.includes(undefined)
    case 'nullable':
    case 'readonly':
      return acceptsUndefined(node.inner)
    case 'pipe':
      return acceptsUndefined(node.in)
    case 'recursive':
      return acceptsUndefined(node.node)
    case 'union':
      return node.options.some(acceptsUndefined)
    case 'intersection':
      return acceptsUndefined(node.left) && acceptsUndefined(node.right)
    default:
      // A ref's target never accepts undefined: `recursive` makes such a target native.
      return false
  }
}

/** Whether an accepted input is its own output (no copy, coercion, default or normalisation). */
export function isIdentity(node: IRNode): boolean {
  switch (node.kind) {
    case 'string':
      return !node.coerce && node.checks.every((c) => c.kind !== 'transform' && c.kind !== 'format')
    case 'number':
    case 'bigint':
    case 'boolean':
    case 'date':
      return !node.coerce
    case 'literal':
    case 'enum':
    case 'null':
    case 'undefined':
    case 'nan':
    case 'unknown':
    case 'never':
      return true
    case 'optional':
    case 'nullable':
      return isIdentity(node.inner)
    case 'readonly':
      // Freezing a primitive is a no-op; a Date is an object zod freezes.
      return leafKinds.has(node.inner.kind) && node.inner.kind !== 'date' && isIdentity(node.inner)
    case 'union':
      return node.options.every(isIdentity)
    case 'pipe':
      return isIdentity(node.in) && isIdentity(node.out)
    default:
      return false
  }
}

// An item that accepts undefined is seen by ajv as a present value it rejects: only stricter.
function positional(node: IRNode): Safety {
  return node.kind !== 'unknown' && acceptsUndefined(node)
    ? worst(node.safety, 'stricter')
    : node.safety
}

function computed(node: Draft<IRNode>): Safety {
  switch (node.kind) {
    case 'number':
      return node.checks.some((c) => c.kind === 'multiple_of') ? 'stricter' : 'exact'
    case 'undefined':
      return 'stricter'
    case 'set':
    case 'native':
      return 'native'
    case 'array':
      return positional(node.item)
    case 'tuple':
      // A fixed item that accepts undefined (`unknown` too) may be missing for the library,
      // while the compiled check demands every fixed item: only stricter.
      return worst(
        ...node.items.map((i) => (acceptsUndefined(i) ? worst(i.safety, 'stricter') : i.safety)),
        node.rest ? positional(node.rest) : 'exact',
      )
    case 'record':
      return worst(node.key.safety, positional(node.value))
    case 'object':
      return worst(
        ...node.properties.map((p) =>
          p.presence === 'required' && acceptsUndefined(p.value)
            ? worst(p.value.safety, 'stricter')
            : p.value.safety,
        ),
        node.catchall ? positional(node.catchall) : 'exact',
      )
    case 'union': {
      if (node.options.some(acceptsUndefined)) return 'native'
      if (node.discriminator !== undefined) return worst(...node.options.map((o) => o.safety))
      // First match wins: an earlier option that rejects too much would hand the value to a later one.
      const last = node.options.length - 1
      const early = node.options
        .slice(0, last)
        .map((o) => (o.safety === 'exact' ? 'exact' : 'native'))
      return worst(...early, node.options[last]?.safety ?? 'exact')
    }
    case 'intersection':
      return worst(node.left.safety, node.right.safety, 'stricter')
    case 'optional':
    case 'nullable':
    case 'readonly':
    case 'default':
      return node.inner.safety
    case 'pipe': {
      const chain = leafKinds.has(node.in.kind) && leafKinds.has(node.out.kind)
      if (!isIdentity(node.in) && !chain) return 'native'
      return worst(node.in.safety, node.out.safety)
    }
    case 'recursive':
      return node.node.safety === 'exact' && !acceptsUndefined(node.node) ? 'exact' : 'native'
    default:
      return 'exact'
  }
}

/**
 * Completes a draft node with its safety class: the worst of the class it was given and the class
 * its children and its own semantics impose.
 * @example withSafety({ kind: 'array', item: stringNode }) // → { kind: 'array', …, safety: 'exact' }
 */
export function withSafety<N extends IRNode>(draft: Draft<N>): N {
  const safety = worst(draft.safety ?? 'exact', computed(draft as Draft<IRNode>))
  return { ...draft, safety } as unknown as N
}
