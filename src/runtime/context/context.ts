import type { Response } from 'express'
import type { ResolvedConfig } from '../config/resolve-config.js'
import type { RouteShape } from '../response/with-shape.js'

// Symbol.for: shapeguard() from one copy of the package (the ESM build, say) and handle() from
// another (the CJS build) must find each other's slots, or stripping would silently not run.

/** The resolved configuration of the `shapeguard()` instance that saw this response. */
export const kConfig: unique symbol = Symbol.for('shapeguard.config') as never
/** The per-route envelope set by `withShape()`. */
export const kRouteShape: unique symbol = Symbol.for('shapeguard.routeShape') as never
/**
 * Seam for `handle()`: when set, the success helpers pass `data` through it before building the
 * envelope (response stripping against the route's response schema runs here).
 */
export const kPrepareData: unique symbol = Symbol.for('shapeguard.prepareData') as never

/** The private slots shapeguard keeps on a response. */
export interface ResponseSlots {
  [kConfig]?: ResolvedConfig
  [kRouteShape]?: RouteShape
  [kPrepareData]?: (data: unknown) => unknown
}

/** The response with its shapeguard slots visible. */
export function slots(res: Response): Response & ResponseSlots {
  return res as Response & ResponseSlots
}
