import type { Request, Response } from 'express'
import type { ResolvedConfig } from './config.js'

/**
 * One step of a guarded request, built once per route (pipeline/plan.ts) by the layer that owns
 * it (guards, rate limit, validation, Cache-Control, transform) and run in order by `validate()`;
 * returns a promise only when it had to wait (async schemas, a remote store).
 */
export type Step = (
  req: Request,
  res: Response,
  config: ResolvedConfig,
) => Promise<void> | undefined
