import type { Request } from 'express'
import type { ResolvedConfig } from '../core/config.js'
import { shapeguardMarkOf } from '../core/route-mark.js'
import { type HostLayer, maxDepth, stackOf } from './router-stack.js'

// Per app: the configuration found, or the stack length it was not found at (a stack that has
// not grown since has no shapeguard() either).
const found = new WeakMap<object, ResolvedConfig | number>()

/** The first `shapeguard()` in a stack, its mounted routers' stacks included, depth first. */
function firstIn(stack: readonly HostLayer[], depth: number): ResolvedConfig | undefined {
  for (const layer of stack) {
    const config = shapeguardMarkOf(layer.handle)?.config
    if (config !== undefined) return config
    if (layer.route === undefined && depth < maxDepth) {
      const inner = stackOf(layer.handle)
      const nested = inner === undefined ? undefined : firstIn(inner, depth + 1)
      if (nested !== undefined) return nested
    }
  }
  return undefined
}

/**
 * The configuration of the first `shapeguard()` mounted in the request's app, or in the app that
 * mounts it, for an answer written before any request went through shapeguard(): the error
 * middleware then answers in the app's error format from the first request on.
 */
export function mountedConfigOf(req: Request): ResolvedConfig | undefined {
  let app: unknown = req.app
  for (let depth = 0; depth < maxDepth && typeof app === 'function'; depth++) {
    const stack = stackOf(app)
    if (stack !== undefined) {
      const known = found.get(app)
      if (typeof known === 'object') return known
      if (known !== stack.length) {
        const config = firstIn(stack, 0)
        found.set(app, config ?? stack.length)
        if (config !== undefined) return config
      }
    }
    app = (app as { parent?: unknown }).parent
  }
  return undefined
}
