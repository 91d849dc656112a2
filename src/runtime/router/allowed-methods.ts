import type { Request } from 'express'

/** A host route's `methods` table: lower-case method names, `_all` for `all()`. */
export type MethodTable = Record<string, boolean | undefined>

/**
 * The method tables of the `createRouter()` routes that matched a request's path but not its
 * method: one table, or an array once there are several. The router records them and falls
 * through; `notFoundHandler()` turns them into a 405. A global symbol, so two copies of the package
 * agree; a single table is stored as is, so a request some later route handles allocates nothing.
 */
export const kAllowedMethods: unique symbol = Symbol.for('shapeguard.allowedMethods')

export type WithAllowedMethods = Request & {
  [kAllowedMethods]?: MethodTable | MethodTable[] | undefined
}

/** Notes the methods of a route whose path matched the request but not its method. */
export function recordAllowedMethods(req: WithAllowedMethods, methods: MethodTable): void {
  const seen = req[kAllowedMethods]
  if (seen === undefined) req[kAllowedMethods] = methods
  else if (Array.isArray(seen)) seen.push(methods)
  else if (seen !== methods) req[kAllowedMethods] = [seen, methods]
}

/**
 * The methods recorded on the request, upper case, each once, in registration order with HEAD
 * right after GET; `undefined` when no `createRouter()` knew the path.
 */
export function allowedMethods(req: WithAllowedMethods): string[] | undefined {
  const seen = req[kAllowedMethods]
  if (seen === undefined) return undefined
  const allowed: string[] = []
  for (const table of Array.isArray(seen) ? seen : [seen]) {
    for (const method in table) {
      if (!table[method] || method === '_all') continue
      const name = method.toUpperCase()
      if (allowed.includes(name)) continue
      allowed.push(name)
      if (name === 'GET' && !allowed.includes('HEAD')) allowed.push('HEAD')
    }
  }
  return allowed.length > 0 ? allowed : undefined
}
