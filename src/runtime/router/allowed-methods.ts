import type { Response } from 'express'
import { contextOf, type MethodTable, peekContext } from '../core/context.js'

// The router records the tables of routes that matched a request's path but not its method and
// falls through; notFoundHandler() turns them into a 405. A single table is stored as is, so a
// request that some later route handles allocates no array.

/** Notes the methods of a route whose path matched the request but not its method. */
export function recordAllowedMethods(res: Response, methods: MethodTable): void {
  const context = contextOf(res)
  const seen = context.allowed
  if (seen === undefined) context.allowed = methods
  else if (Array.isArray(seen)) seen.push(methods)
  else if (seen !== methods) context.allowed = [seen, methods]
}

/**
 * The methods recorded on the request, upper case, each once, in registration order with HEAD
 * right after GET; `undefined` when no `createRouter()` knew the path.
 */
export function allowedMethods(res: Response): string[] | undefined {
  const seen = peekContext(res)?.allowed
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
