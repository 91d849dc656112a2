import type { IRNode, IRRecursive } from '../../engine/ir/types.js'
import { each, type Visitor, visitSome, wrapperKinds } from '../../engine/ir/visit.js'
import { isObject } from '../../shared/is-object.js'

type Path = readonly (string | number)[]
type Found = Path | undefined
interface Ctx {
  readonly path: Path
  readonly recursions: ReadonlyMap<string, IRRecursive>
}

const at = (ctx: Ctx, key: string | number): Ctx => ({ ...ctx, path: [...ctx.path, key] })

const table: Partial<Visitor<Found, Ctx & { value: unknown }>> = {
  object: (n, c) => {
    if (!isObject(c.value)) return undefined
    const declared = new Map(n.properties.map((p) => [p.key, p.value]))
    for (const [key, v] of Object.entries(c.value)) {
      const node = declared.get(key) ?? (n.unknownKeys === 'catchall' ? n.catchall : undefined)
      if (node === undefined) return [...c.path, key]
      const found = find(node, v, at(c, key))
      if (found) return found
    }
    return undefined
  },
  ...each(['array', 'set'], (n, c) => {
    const items = c.value instanceof Set ? [...c.value] : Array.isArray(c.value) ? c.value : []
    for (const [i, v] of items.entries()) {
      const found = find(n.item, v, at(c, i))
      if (found) return found
    }
    return undefined
  }),
  tuple: (n, c) => {
    if (!Array.isArray(c.value)) return undefined
    for (const [i, v] of c.value.entries()) {
      const node = n.items[i] ?? n.rest
      const found = node && find(node, v, at(c, i))
      if (found) return found
    }
    return undefined
  },
  record: (n, c) => {
    if (!isObject(c.value)) return undefined
    for (const [key, v] of Object.entries(c.value)) {
      const found = find(n.value, v, at(c, key))
      if (found) return found
    }
    return undefined
  },
  // Declared by some option is declared: the first option that finds nothing clears the value.
  union: (n, c) => {
    let first: Found
    for (const option of n.options) {
      const found = find(option, c.value, c)
      if (found === undefined) return undefined
      first ??= found
    }
    return first
  },
  ...each(wrapperKinds, (n, c) => find(n.inner, c.value, c)),
  pipe: (n, c) => find(n.out, c.value, c),
  recursive: (n, c) =>
    find(n.node, c.value, { ...c, recursions: new Map(c.recursions).set(n.id, n) }),
  ref: (n, c) => {
    const target = c.recursions.get(n.id)
    return target === undefined ? undefined : find(target.node, c.value, c)
  },
  native: (n, c) => {
    const out = n.output ?? n.inner
    return out === undefined ? undefined : find(out, c.value, c)
  },
}

function find(node: IRNode, value: unknown, ctx: Ctx): Found {
  return visitSome(node, table, () => undefined, { ...ctx, value })
}

/**
 * The path of the first key in a response's data that its schema does not declare (an object
 * that strips or refuses unknown keys), or undefined. Intersections are not followed: a key may
 * be declared by either side.
 * @example undeclaredKey(userIr, { id: 1, passwordHash: 'x' }) // → ['passwordHash']
 */
export function undeclaredKey(node: IRNode, value: unknown): Found {
  return find(node, value, { path: [], recursions: new Map() })
}
