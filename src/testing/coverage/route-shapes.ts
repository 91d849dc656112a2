import { toAdapter } from '../../adapters/resolve.js'
import type { IRNode } from '../../engine/ir/types.js'
import type { AnyRoute } from '../../runtime/pipeline/route-types.js'

/** The IR of a route's request parts and of its response data, the schemas coverage reads. */
export interface RouteShapes {
  /** By request part (`params`, `query`, `headers`, `body`), those the route has a schema for. */
  readonly parts: readonly (readonly [part: string, ir: IRNode])[]
  readonly response: IRNode | undefined
}

const requestParts = ['params', 'query', 'headers', 'body'] as const
const shapes = new WeakMap<object, RouteShapes>()

/** A route definition's shapes, read once per definition. */
export function shapesOf(route: AnyRoute): RouteShapes {
  let found = shapes.get(route)
  if (found === undefined) {
    const irOf = (schema: unknown) => (schema === undefined ? undefined : toAdapter(schema).ir)
    const parts: [string, IRNode][] = []
    for (const part of requestParts) {
      const ir = irOf(route[part])
      if (ir !== undefined) parts.push([part, ir])
    }
    found = { parts, response: irOf(route.response ?? route.sends) }
    shapes.set(route, found)
  }
  return found
}
