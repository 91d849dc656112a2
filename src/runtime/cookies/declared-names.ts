import type { SchemaAdapter } from '../../engine/adapter.js'
import type { IRNode } from '../../engine/ir/types.js'
import { each, type Visitor, visitSome, wrapperKinds } from '../../engine/ir/visit.js'

const MAX_UNWRAP = 32

type Names = ReadonlySet<string> | undefined

const both = (a: Names, b: Names): Names =>
  a === undefined || b === undefined ? undefined : new Set([...a, ...b])

// The keys of an object, through wrappers, a pipe's input, unions and intersections (every
// option's keys); undefined for a node whose keys cannot be listed (a record, a custom check).
const namesThrough: Partial<Visitor<Names, number>> = {
  object: (n) => new Set(n.properties.map((p) => p.key)),
  ...each(wrapperKinds, (n, depth) => namesOf(n.inner, depth + 1)),
  pipe: (n, depth) => namesOf(n.in, depth + 1),
  recursive: (n, depth) => namesOf(n.node, depth + 1),
  native: (n, depth) => (n.inner === undefined ? undefined : namesOf(n.inner, depth + 1)),
  union: (n, depth) =>
    n.options.reduce<Names>((names, o) => both(names, namesOf(o, depth + 1)), new Set()),
  intersection: (n, depth) => both(namesOf(n.left, depth + 1), namesOf(n.right, depth + 1)),
}

function namesOf(node: IRNode, depth: number): Names {
  return depth > MAX_UNWRAP ? undefined : visitSome(node, namesThrough, () => undefined, depth)
}

/**
 * The cookie names a `signedCookies` schema declares, found once at definition from its IR;
 * undefined when they cannot be listed (no IR, a record), and then every cookie counts as declared.
 */
export function declaredNames(adapter: SchemaAdapter): Names {
  return adapter.ir === undefined ? undefined : namesOf(adapter.ir, 0)
}
