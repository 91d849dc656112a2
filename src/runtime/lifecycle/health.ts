import type { Router } from 'express'

/** Options of `health()`. */
export interface HealthOptions {
  checks?: Record<string, unknown>
}

/** The liveness and readiness routes. (Built by the health part of issue 47.) */
export function health(_options?: HealthOptions): Router {
  throw new Error('not built yet')
}
