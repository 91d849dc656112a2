// What is read of an Express 4 or 5 router: its layer stack and the paths its layers are mounted
// at (Express's own structures, not its documented API).

/** The parts of an Express 4 or 5 router layer read here. */
export interface HostLayer {
  readonly method?: string
  readonly handle?: unknown
  readonly route?: { readonly path?: unknown; readonly stack?: readonly HostLayer[] }
  /** Express 5 (router 2): the path the layer was registered with. */
  readonly rawPath?: unknown
  /** Express 4: the path compiled to a RegExp (`fast_slash` for `/`) and its parameter names. */
  readonly regexp?: RegExp & { readonly fast_slash?: boolean }
  readonly keys?: readonly { readonly name: string | number }[]
}

// Nested routers deeper than this are not followed (a router mounted inside itself).
export const maxDepth = 32

/** The layer stack of an Express 4 app, an Express 5 app, or a router (a function with `stack`). */
export function stackOf(app: unknown): readonly HostLayer[] | undefined {
  if ((typeof app !== 'function' && typeof app !== 'object') || app === null) return undefined
  const host = app as {
    stack?: unknown
    _router?: { stack?: unknown }
    router?: { stack?: unknown }
    lazyrouter?: unknown
  }
  if (Array.isArray(host.stack)) return host.stack
  // Express 4 keeps the app's router in `_router` (created on first use), Express 5 in `router`.
  if (typeof host.lazyrouter === 'function') return (host._router?.stack as HostLayer[]) ?? []
  const stack = host.router?.stack
  return Array.isArray(stack) ? stack : undefined
}

// The end of every mount RegExp path-to-regexp 0.1 (Express 4) compiles: an optional slash, then
// a slash or the end.
const mountEnd = '\\/?(?=\\/|$)'
// A parameter segment, as path-to-regexp 0.1.12 and earlier 0.1 versions write it.
const paramGroup = /\(\?:\\\/\(\[\^\/\]\+\?\)\)|\\\/\(\?:\(\[\^\\\/\]\+\?\)\)/g

/**
 * Express 4's mount paths from the layer's compiled RegExp (`^\/v1(?:\/([^/]+?))\/?(?=\/|$)`, one
 * `^…` alternative per path of an array), or undefined when it is not one a plain path compiles to
 * (a RegExp the user gave, a wildcard).
 */
function pathsOfRegexp(layer: HostLayer): readonly string[] | undefined {
  const re = layer.regexp
  if (re === undefined) return undefined
  if (re.fast_slash) return ['']
  let key = 0
  const paths: string[] = []
  for (const alternative of re.source.split(/\|(?=\^)/)) {
    if (!alternative.startsWith('^') || !alternative.endsWith(mountEnd)) return undefined
    const body = alternative
      .slice(1, -mountEnd.length)
      .replace(paramGroup, () => `/:${String(layer.keys?.[key++]?.name)}`)
    const path = body.replace(/\\(.)/g, '$1')
    if (/[()[\]*+?^$|\\]/.test(path)) return undefined
    paths.push(path)
  }
  return paths
}

/** The paths a mounted layer (`app.use(path, router)`) stands at, or undefined when unreadable. */
export function mountPaths(layer: HostLayer): readonly string[] | undefined {
  if (layer.rawPath !== undefined) return stringPaths(layer.rawPath)
  return pathsOfRegexp(layer)
}

/** The paths of a layer registered with a string or an array of them; undefined for a RegExp. */
export function stringPaths(path: unknown): readonly string[] | undefined {
  const paths = Array.isArray(path) ? path.flat(Infinity) : [path]
  return paths.every((p) => typeof p === 'string') ? (paths as string[]) : undefined
}
