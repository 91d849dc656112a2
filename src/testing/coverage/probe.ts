import type { NextFunction, Request, Response } from 'express'
import type { IRNode } from '../../engine/ir/types.js'
import { peekContext, type ResponseStripper } from '../../runtime/core/context.js'
import { type CoverageProbe, coverage } from '../../runtime/core/coverage-probe.js'
import { routePatternOf } from '../../runtime/host/route-pattern.js'
import type { AnyRoute } from '../../runtime/pipeline/route-types.js'
import { isPending } from '../../runtime/response/strip-response.js'
import { hitsOf, type ItemKind } from './coverage-items.js'
import { bump, type CoverageRecords, routeRecord } from './records.js'
import { shapesOf } from './route-shapes.js'

// The probe the runtime calls while coverage is recorded: one per copy of this module, installed
// while at least one recorder listens. A request's key, error code and the items it exercised
// are kept beside its response until it finishes, then counted into every listening recorder.

interface Pending {
  key: string
  code: string | undefined
  readonly hits: Map<string, ItemKind>
}

const pending = new WeakMap<Response, Pending>()
const listeners = new Set<CoverageRecords>()

function addHits(into: Map<string, ItemKind>, from: Map<string, ItemKind>): void {
  for (const [item, kind] of from) into.set(item, kind)
}

/** `GET /users/:id`; a HEAD request Express routed to a GET route counts for that route. */
function keyOf(req: Request): string | undefined {
  const pattern = routePatternOf(req)
  if (pattern === undefined) return undefined
  const methods = (req.route as { methods?: Record<string, unknown> }).methods
  const method = req.method === 'HEAD' && methods?.head !== true ? 'GET' : req.method
  return `${method} ${pattern}`
}

function finish(res: Response, state: Pending): void {
  for (const records of listeners) {
    const record = routeRecord(records, state.key)
    if (record === undefined) continue
    record.requests++
    bump(record.statuses, String(res.statusCode))
    if (state.code !== undefined) bump(record.codes, state.code)
    for (const item of state.hits.keys()) bump(record.items, item)
  }
}

// The handler's data as the response schema reads it, before stripping: the items it exercised
// count once the stripper accepted it. Without the compiled writer (`json`), the helper strips
// then stringifies: the same bytes, by the writer's contract.
function watchStripper(res: Response, response: IRNode, state: Pending): void {
  const context = peekContext(res)
  const strip = context?.stripper
  if (context === undefined || strip === undefined) return
  context.stripper = ((data: unknown): unknown => {
    const out = strip(data)
    const count = () => {
      try {
        addHits(state.hits, hitsOf(response, 'response', data))
      } catch {}
    }
    if (isPending(out)) out.then(count, () => {})
    else count()
    return out
  }) as ResponseStripper
}

function enter(route: object, req: Request, res: Response, next: NextFunction): NextFunction {
  const key = keyOf(req)
  if (key === undefined) return next
  let state = pending.get(res)
  if (state === undefined) {
    state = { key, code: undefined, hits: new Map() }
    pending.set(res, state)
    const watched = state
    res.once('finish', () => finish(res, watched))
  } else state.key = key
  const held = state
  const shape = shapesOf(route as AnyRoute)
  return function coverageNext(err?: unknown) {
    // Validated (not refused, nor 'route'/'router'): the request's parts are the schemas' output.
    // Counting never stands between a request and its route: a value it cannot walk is uncounted.
    if (err === undefined) {
      try {
        for (const [part, ir] of shape.parts)
          addHits(held.hits, hitsOf(ir, part, (req as unknown as Record<string, unknown>)[part]))
        if (shape.response !== undefined) watchStripper(res, shape.response, held)
      } catch {}
    }
    next(err as never)
  }
}

function error(res: Response, code: string): void {
  const state = pending.get(res)
  if (state !== undefined) state.code = code
}

let installed: CoverageProbe | undefined
// The probe of another copy of the package that was there first: called too, put back after.
let before: CoverageProbe | undefined

/**
 * Counts every guarded request into `records` from now on, until the function returned is called.
 * The first listener installs the probe (after any other copy of the package installed, which
 * it calls too); the last one removes it.
 */
export function listen(records: CoverageRecords): () => void {
  listeners.add(records)
  if (installed === undefined) {
    before = coverage.probe
    installed = {
      enter: (route, req, res, next) =>
        enter(route, req, res, before === undefined ? next : before.enter(route, req, res, next)),
      error(res, code) {
        before?.error(res, code)
        error(res, code)
      },
    }
    coverage.probe = installed
  }
  return () => {
    listeners.delete(records)
    if (listeners.size > 0 || installed === undefined) return
    // Another copy's probe installed after this one stays; only this one's is taken out.
    if (coverage.probe === installed) coverage.probe = before
    installed = undefined
  }
}
