import { toAdapter } from '../../../adapters/resolve.js'
import type { IRNode } from '../../../engine/ir/types.js'
import type { OpenAPIDocument } from '../../../openapi/generate/types.js'
import type { DiscoveredRoute } from '../../../runtime/pipeline/discover-routes.js'
import { isObject } from '../../../shared/is-object.js'
import { keyOf } from '../fuzz-route.js'
import { paramNames } from '../route-requests.js'

// The resources of an app for the stateful phase: which route creates one, where its id comes
// from, and the routes that id feeds. Found from the paths (`POST /users` feeds `/users/:id`), and
// from the OpenAPI links the document declares, which win for their create.

/** What a route fed by an id does with it. */
export type ItemRole = 'read' | 'update' | 'delete' | 'nested'

/** A route an id feeds, and the segment of its path the id fills. */
export interface ItemRoute {
  readonly route: DiscoveredRoute
  readonly role: ItemRole
  /** The index of the id's segment in `path.split('/')`. */
  readonly segment: number
}

/** Where a create's answer holds the id: a field of its data, `Location`, or a link's expression. */
export type IdSource =
  | { readonly kind: 'field'; readonly field: string }
  | { readonly kind: 'location' }
  | { readonly kind: 'link'; readonly name: string; readonly expression: string }

/** A resource: the route that creates one, the route listing them, the routes its id feeds. */
export interface Resource {
  /** The collection's path (`/users`), or the create's route for a link. */
  readonly name: string
  readonly create: DiscoveredRoute
  readonly list: DiscoveredRoute | undefined
  readonly items: readonly ItemRoute[]
  readonly id: IdSource
}

const segments = (path: string) => path.split('/')
const isParam = (segment: string | undefined) => segment?.startsWith(':') === true
const streams = (r: DiscoveredRoute) => r.route.events !== undefined || r.route.stream !== undefined

const roleOf = (r: DiscoveredRoute, last: boolean): ItemRole => {
  if (!last) return 'nested'
  if (r.method === 'get') return 'read'
  if (r.method === 'patch' || r.method === 'put') return 'update'
  return r.method === 'delete' ? 'delete' : 'nested'
}

/** The keys a response's data declares at its top level. */
export function dataKeys(node: IRNode | undefined): Set<string> {
  const keys = new Set<string>()
  const walk = (n: IRNode | undefined): void => {
    if (n === undefined) return
    if (n.kind === 'object') for (const p of n.properties) keys.add(p.key)
    else if (n.kind === 'union') n.options.forEach(walk)
    else if (n.kind === 'intersection') [n.left, n.right].forEach(walk)
    else if (n.kind === 'pipe') walk(n.out)
    else if (n.kind === 'recursive') walk(n.node)
    else if (n.kind === 'native') walk(n.output ?? n.inner)
    else if ('inner' in n) walk(n.inner)
  }
  walk(node)
  return keys
}

function idField(create: DiscoveredRoute, items: readonly ItemRoute[]): IdSource {
  const schema = create.route.response ?? create.route.sends
  const keys = dataKeys(schema === undefined ? undefined : toAdapter(schema).ir)
  const named = items.map((i) => segments(i.route.path)[i.segment]!.slice(1))
  const field = [...named, 'id'].find((k) => keys.has(k))
  return field === undefined ? { kind: 'location' } : { kind: 'field', field }
}

/** The resources the paths tell: a POST (or PUT) to a collection feeds its `/:param` routes. */
function fromPaths(routes: readonly DiscoveredRoute[]): Resource[] {
  const found: Resource[] = []
  const usable = routes.filter((r) => paramNames(r.path) !== undefined && !streams(r))
  for (const create of usable) {
    const at = segments(create.path)
    const known = found.some((f) => f.name === create.path)
    if (known || !(create.method === 'post' || create.method === 'put') || at.some(isParam))
      continue
    const items: ItemRoute[] = []
    for (const r of usable) {
      const s = segments(r.path)
      const under = s.length > at.length && at.every((x, i) => x === s[i])
      if (under && isParam(s[at.length]))
        items.push({ route: r, role: roleOf(r, s.length === at.length + 1), segment: at.length })
    }
    if (items.length === 0) continue
    const list = usable.find((r) => r.method === 'get' && r.path === create.path)
    found.push({ name: create.path, create, list, items, id: idField(create, items) })
  }
  return found
}

// The document's path of a route: `/users/:id` is `/users/{id}` (a mount prefix may be its base).
const documented = (path: string) => path.replace(/:([A-Za-z0-9_$]+)/g, '{$1}')

/** The resources the document's links declare: one for each operation whose answers have links. */
function fromLinks(routes: readonly DiscoveredRoute[], doc: OpenAPIDocument): Resource[] {
  const ops: { route: DiscoveredRoute; op: Record<string, unknown> }[] = []
  for (const [path, item] of Object.entries(doc.paths ?? {}))
    for (const [method, op] of Object.entries(isObject(item) ? item : {})) {
      const route = routes.find(
        (r) =>
          r.method === method && (documented(r.path) === path || documented(r.path).endsWith(path)),
      )
      if (route !== undefined && isObject(op)) ops.push({ route, op })
    }
  const found: Resource[] = []
  for (const { route: create, op } of ops) {
    const items: ItemRoute[] = []
    let id: IdSource | undefined
    for (const answer of Object.values(isObject(op.responses) ? op.responses : {})) {
      const links = isObject(answer) && isObject(answer.links) ? answer.links : {}
      for (const [name, link] of Object.entries(links)) {
        if (!isObject(link) || !isObject(link.parameters)) continue
        const target = ops.find((o) => o.op.operationId === link.operationId)?.route
        const [param, expression] = Object.entries(link.parameters)[0] ?? []
        if (target === undefined || typeof expression !== 'string' || streams(target)) continue
        const s = segments(target.path)
        const segment = s.indexOf(`:${param}`)
        if (segment === -1) continue
        items.push({ route: target, role: roleOf(target, segment === s.length - 1), segment })
        id ??= { kind: 'link', name, expression }
      }
    }
    if (id !== undefined) found.push({ name: keyOf(create), create, list: undefined, items, id })
  }
  return found
}

/**
 * The app's resources: those its document's links declare, then those its paths tell for every
 * other create; and the routes with a path parameter no resource feeds.
 */
export function findResources(
  routes: readonly DiscoveredRoute[],
  doc: OpenAPIDocument,
): { resources: Resource[]; unlinked: string[] } {
  const linked = fromLinks(routes, doc)
  const resources = [
    ...linked,
    ...fromPaths(routes).filter((p) => !linked.some((l) => l.create === p.create)),
  ]
  const fed = new Set(resources.flatMap((r) => r.items.map((i) => i.route)))
  const unlinked = routes
    .filter((r) => r.path.includes(':') && !fed.has(r) && !resources.some((x) => x.create === r))
    .map(keyOf)
  return { resources, unlinked }
}
