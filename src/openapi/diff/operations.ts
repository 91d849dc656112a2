import { isObject } from '../../shared/is-object.js'
import { child, type Doc, objectAt } from './document.js'

const methods = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
  'query',
] as const

/** One operation of a document, with what it inherits from its path item. */
export interface Operation {
  /** `GET /users/{id}`, as the document writes the path. */
  readonly name: string
  readonly node: Record<string, unknown>
  readonly ptr: string
  /** The path item's parameters (each operation's own come after and win). */
  readonly shared: readonly { node: unknown; ptr: string }[]
  /** The path's template parameters in order: `id` in `/users/{id}` is 0. */
  readonly templateNames: readonly string[]
}

/**
 * The operations of a document by a key that ignores the names of path parameters
 * (`/users/{id}` and `/users/{userId}` are one route, as a client calls it).
 */
export function operationsOf(doc: Doc): Map<string, Operation> {
  const operations = new Map<string, Operation>()
  const paths = doc.root.paths
  if (!isObject(paths)) return operations
  for (const path of Object.keys(paths)) {
    if (!path.startsWith('/')) continue
    const item = objectAt(doc, { node: paths[path], ptr: child('/paths', path) })
    if (item === undefined) continue
    const templateNames = [...path.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]!)
    const route = path.replace(/\{[^{}]*\}/g, '{}')
    const shared = Array.isArray(item.node.parameters)
      ? item.node.parameters.map((node, i) => ({ node, ptr: child(item.ptr, 'parameters', i) }))
      : []
    for (const method of methods) {
      const node = item.node[method]
      if (!isObject(node)) continue
      const name = `${method.toUpperCase()} ${path}`
      operations.set(`${method} ${route}`, {
        name,
        node,
        ptr: child(item.ptr, method),
        shared,
        templateNames,
      })
    }
  }
  return operations
}
