import { type HostLayer, maxDepth, stackOf } from '../host/router-stack.js'

// The methods the app's own routes (`app.get`, `express.Router()`) have for a path, read from
// its layer stack with the host's own matching. Only a request nothing handled gets here (the
// 405 of notFoundHandler), so a matched request never pays for it.

/** The members of an Express 4 or 5 layer used here. */
interface MatchingLayer extends HostLayer {
  /** Express 4: a boolean (and the layer's `path` set); Express 5: the match, or false. */
  match(path: string): boolean | { readonly path?: string } | undefined
  readonly path?: string
  readonly route?: HostLayer['route'] & { readonly methods?: Record<string, unknown> }
}

function collect(stack: readonly HostLayer[], path: string, depth: number, into: string[]) {
  if (depth > maxDepth) return
  for (const layer of stack as readonly MatchingLayer[]) {
    if (typeof layer.match !== 'function') continue
    let matched: ReturnType<MatchingLayer['match']>
    try {
      // Express 4's match sets the layer's `path` and `params`, as its own dispatch does.
      matched = layer.match(path)
    } catch {
      // A malformed percent-encoding in a parameter: the host refuses it as a 400 of its own.
      continue
    }
    if (!matched) continue
    if (layer.route !== undefined) {
      for (const method of Object.keys(layer.route.methods ?? {}))
        if (method !== '_all' && layer.route.methods?.[method]) into.push(method.toUpperCase())
      continue
    }
    const inner = (layer.handle as { stack?: unknown } | undefined)?.stack
    if (!Array.isArray(inner)) continue
    const prefix = (typeof matched === 'object' ? matched.path : layer.path) ?? ''
    const rest = path.slice(prefix.length)
    collect(inner, rest.startsWith('/') ? rest : `/${rest}`, depth + 1, into)
  }
}

/**
 * The methods the app's routes have for `pathname`, upper case, each once, in registration order
 * with HEAD right after GET; undefined when no route has the path, or one has it under `method`
 * (a route that passed the request on: not found, not a wrong method).
 */
export function routeMethods(app: unknown, method: string, pathname: string): string[] | undefined {
  const stack = stackOf(app)
  if (stack === undefined) return undefined
  const found: string[] = []
  collect(stack, pathname, 0, found)
  const allowed: string[] = []
  for (const name of found) {
    if (allowed.includes(name)) continue
    allowed.push(name)
    if (name === 'GET' && !allowed.includes('HEAD')) allowed.push('HEAD')
  }
  return allowed.length > 0 && !allowed.includes(method) ? allowed : undefined
}
