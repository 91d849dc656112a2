import { isObject } from '../../shared/is-object.js'

/** A place in a document: the value there and its JSON pointer. */
export interface Slot {
  readonly node: unknown
  readonly ptr: string
}

/** A slot after its local `$ref`s are followed; `ref` is the last `$ref` followed, if any. */
export interface Located extends Slot {
  readonly ref?: string
  /** A `$ref` this document cannot follow (external, missing, or a loop of references). */
  readonly opaque?: string
}

const escapeToken = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1')

/** `ptr` with `tokens` appended, each escaped (RFC 6901). */
export const child = (ptr: string, ...tokens: readonly (string | number)[]): string =>
  ptr + tokens.map((t) => `/${escapeToken(String(t))}`).join('')

/** The value at a JSON pointer, or undefined. */
function at(root: unknown, ptr: string): unknown {
  if (ptr === '') return root
  let node = root
  for (const raw of ptr.slice(1).split('/')) {
    if (!isObject(node) && !Array.isArray(node)) return undefined
    const token = raw.replaceAll('~1', '/').replaceAll('~0', '~')
    if (!Object.hasOwn(node, token)) return undefined
    node = (node as Record<string, unknown>)[token]
  }
  return node
}

function refOf(node: unknown): string | undefined {
  return isObject(node) && typeof node.$ref === 'string' ? node.$ref : undefined
}

/** One OpenAPI document, read through its local `$ref`s. */
export interface Doc {
  readonly root: Record<string, unknown>
  /** The slot with its `$ref`s followed; a loop or an unresolvable `$ref` gives `opaque`. */
  readonly follow: (slot: Slot) => Located
}

export function readDoc(root: Record<string, unknown>): Doc {
  const follow = (slot: Slot): Located => {
    let current: Located = slot
    const seen = new Set<string>()
    for (let ref = refOf(current.node); ref !== undefined; ref = refOf(current.node)) {
      if (!ref.startsWith('#') || seen.has(ref)) return { ...current, opaque: ref }
      seen.add(ref)
      let ptr: string
      try {
        ptr = decodeURIComponent(ref.slice(1))
      } catch {
        return { ...current, opaque: ref }
      }
      const node = at(root, ptr)
      if (node === undefined) return { ...current, opaque: ref }
      current = { node, ptr, ref }
    }
    return current
  }
  return { root, follow }
}

/** The object at `slot`, `$ref`s followed, or undefined when it is not one. */
export function objectAt(
  doc: Doc,
  slot: Slot,
): (Located & { node: Record<string, unknown> }) | undefined {
  const located = doc.follow(slot)
  return isObject(located.node)
    ? (located as Located & { node: Record<string, unknown> })
    : undefined
}
