import type { NextFunction, Request, Response, Router } from 'express'
import express from 'express'
import { checkBoolean, checkInteger, checkNested, checkOptions } from '../../shared/check-option.js'
import { optionError } from '../../shared/error-codes.js'
import { debugFromEnv } from '../core/config.js'
import { markRoute } from '../core/route-mark.js'
import { skipRequestLog } from '../logging/skip-request-log.js'
import { isDraining } from './drain-state.js'
import { answerHealthy, answerNotReady } from './health-answer.js'
import { type HealthCheck, resolveChecks } from './health-checks.js'
import { healthRoutes } from './health-document.js'
import { markHealth } from './health-requests.js'
import { readiness, statesOf } from './readiness.js'

/** Where `health()` answers: literal paths, under the router's mount path. */
export interface HealthPaths {
  /** Liveness: 200 while the process answers; nothing is run. @default '/healthz' */
  liveness?: string
  /** Readiness: 200 while every check passes. @default '/readyz' */
  readiness?: string
}

/** Options of `health()`. */
export interface HealthOptions {
  /** The readiness checks by name: functions, `redisStore()`s or clients with `ping()`, or `{ check, timeoutMs }`. */
  checks?: Record<string, HealthCheck>
  /** Where liveness and readiness answer, under the router's mount path. */
  paths?: HealthPaths
  /** Each check's timeout unless it has its own, in milliseconds. @default 2000 */
  timeoutMs?: number
  /** Document both routes in `generateOpenAPI({ app })`. @default false */
  document?: boolean
  /** Write the request log line of probes. @default false */
  log?: boolean
}

const defaultPaths = { liveness: '/healthz', readiness: '/readyz' }
// A literal path: no parameter, wildcard or pattern syntax of either Express line, no empty segment.
const literalPath = /^(?:\/[A-Za-z0-9._~-]+)+$/

function checkPath(path: string | undefined, name: keyof typeof defaultPaths): string {
  if (path === undefined) return defaultPaths[name]
  if (typeof path !== 'string' || !literalPath.test(path)) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `shapeguard: health(): paths.${name} must be a literal path such as '${defaultPaths[name]}' (letters, digits, . _ ~ - between slashes)`,
    )
  }
  return path
}

/**
 * A router serving liveness (`/healthz`: 200 while the process answers, nothing run) and
 * readiness (`/readyz`: 200 when every check passes, each within its own timeout; 503 NOT_READY
 * naming the failing checks, and from the moment shutdown begins), on GET and HEAD, in the app's
 * envelope and error format, `Cache-Control: no-store`. Probes write no request log line, are
 * never rate limited and are left out of the OpenAPI document unless asked; load shedding and a
 * draining server let them through. Concurrent readiness probes share one run of the checks.
 * @param options `checks`, `paths`, `timeoutMs` (default 2000), `document`, `log`; default `{}`
 * @example app.use(health({ checks: { db: () => pool.query('select 1'), redis: store } }))
 */
export function health(options: HealthOptions = {}): Router {
  checkOptions(options, ['checks', 'paths', 'timeoutMs', 'document', 'log'], 'health()')
  const timeoutMs = checkInteger(options.timeoutMs, 'health(): timeoutMs', 1) ?? 2000
  const checks = resolveChecks(options.checks, timeoutMs)
  const paths: HealthPaths | undefined = options.paths
  checkNested(paths, 'health(): paths', ['liveness', 'readiness'])
  const livenessPath = checkPath(paths?.liveness, 'liveness')
  const readinessPath = checkPath(paths?.readiness, 'readiness')
  if (livenessPath === readinessPath)
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      'shapeguard: health(): paths.liveness and paths.readiness must differ',
    )
  const log = checkBoolean(options.log, 'health(): log') ?? false
  const document = checkBoolean(options.document, 'health(): document') ?? false
  const debugByDefault = debugFromEnv()
  const ready = readiness(checks)

  function liveness(req: Request, res: Response): void {
    if (!log) skipRequestLog(res)
    answerHealthy(req, res, { status: 'ok' })
  }

  function readinessProbe(req: Request, res: Response, next: NextFunction): void {
    if (!log) skipRequestLog(res)
    if (isDraining(req)) {
      answerNotReady(req, res, 'draining', debugByDefault)
      return
    }
    ready()
      .then((report) => {
        // The client went while the checks ran: nothing to answer.
        if (res.headersSent || res.destroyed) return
        if (isDraining(req)) answerNotReady(req, res, 'draining', debugByDefault)
        else if (report.ready) answerHealthy(req, res, { status: 'ok', checks: statesOf(report) })
        else answerNotReady(req, res, report, debugByDefault)
      })
      .catch(next)
  }

  if (document) {
    const routes = healthRoutes(checks.map((check) => check.name))
    markRoute(liveness, routes.liveness)
    markRoute(readinessProbe, routes.readiness)
  }
  // Case-sensitive, one trailing slash allowed: exactly what isHealthRequest lets through.
  const router = express.Router({ caseSensitive: true, strict: false })
  router.get(livenessPath, liveness)
  router.get(readinessPath, readinessProbe)
  return markHealth(router, [livenessPath, readinessPath])
}
