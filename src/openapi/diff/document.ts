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

/** Where a `$ref` leads: the schema at the end of its chain, or the `$ref` that cannot be followed. */
type Resolved = Located | { readonly stuck: string }

export function readDoc(root: Record<string, unknown>): Doc {
  // Each `$ref` is resolved once: a long chain reached from many places is walked once, not once per place.
  const resolved = new Map<string, Resolved>()

  const target = (ref: string): Located | undefined => {
    if (!ref.startsWith('#')) return undefined
    let ptr: string
    try {
      ptr = decodeURIComponent(ref.slice(1))
    } catch {
      return undefined
    }
    if (ptr !== '' && !ptr.startsWith('/')) return undefined
    const node = at(root, ptr)
    return node === undefined ? undefined : { node, ptr, ref }
  }

  // Walks the chain from `first` until a schema without `$ref`, a `$ref` resolved before, or one
  // that cannot be followed (external, missing, or back into the chain), then records every `$ref`
  // of the walk: the chain is walked in a loop, never recursively.
  const resolve = (first: string): Resolved => {
    const walked: string[] = []
    const inWalk = new Set<string>()
    let last: Located | undefined
    let end: Resolved | undefined
    let ref = first
    while (end === undefined) {
      const known = resolved.get(ref)
      const next = known === undefined && !inWalk.has(ref) ? target(ref) : undefined
      if (known !== undefined)
        end = 'stuck' in known && last !== undefined ? { ...last, opaque: known.stuck } : known
      else if (next === undefined)
        end = last === undefined ? { stuck: ref } : { ...last, opaque: ref }
      else {
        walked.push(ref)
        inWalk.add(ref)
        last = next
        const further = refOf(next.node)
        if (further === undefined) end = next
        else ref = further
      }
    }
    for (const ref of walked.length > 0 ? walked : [first]) resolved.set(ref, end)
    return end
  }

  const follow = (slot: Slot): Located => {
    const ref = refOf(slot.node)
    if (ref === undefined) return slot
    const end = resolved.get(ref) ?? resolve(ref)
    return 'stuck' in end ? { ...slot, opaque: end.stuck } : end
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
