import type { NextFunction, Request, Response } from 'express'

/**
 * What watches guarded requests while coverage is recorded (shapeguard/testing's
 * `recordCoverage`). Off, it costs one read of `coverage.probe` per guarded request.
 */
export interface CoverageProbe {
  /**
   * A guarded request enters its route (`route`: the route's definition): the `next` returned is
   * the one the route calls once the request is validated, or with its refusal.
   */
  enter(route: object, req: Request, res: Response, next: NextFunction): NextFunction
  /** The error middleware answers the request with `code`. */
  error(res: Response, code: string): void
}

// One slot for every copy of the package (the ESM and CJS builds), as the request context has:
// a recorder loaded from one copy sees the routes of an app that loaded the other.
const key = Symbol.for('shapeguard.coverage')
const global = globalThis as { [key]?: { probe: CoverageProbe | undefined } }

global[key] ??= { probe: undefined }

/** The probe slot: `probe` is undefined unless coverage is being recorded. */
export const coverage: { probe: CoverageProbe | undefined } = global[key]
