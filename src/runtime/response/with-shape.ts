import type { RequestHandler } from 'express'
import { contextOf } from '../core/context.js'
import { compileRouteShape, type RouteShapeMap } from './route-shape.js'

export type { RouteShapeMap } from './route-shape.js'

/**
 * Overrides the envelope of one route's success responses; `'raw'` sends the data alone.
 * Mount it after `validate()`/`handle()` validation so response stripping sees the data first.
 * @param shape a map of output field to token, or `'raw'`
 * @example app.get('/me', withShape({ id: '{data.user.id}', name: '{data.user.name}' }), handler)
 */
export function withShape(shape: RouteShapeMap | 'raw'): RequestHandler {
  const compiled = compileRouteShape(shape)
  return function withShape(_req, res, next) {
    contextOf(res).shape = compiled
    next()
  }
}
