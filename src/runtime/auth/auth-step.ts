import type { Request, Response } from 'express'
import type { SecurityRequirement } from '../../shared/security-scheme.js'
import { type AppError, isAppError, raise } from '../core/app-error.js'
import type { ResolvedConfig } from '../core/config.js'
import type { Step } from '../core/step.js'
import { isThenable } from '../core/thenable.js'
import { type AuthPlan, planAuth } from './auth-plan.js'
import { MISSING, sentTwice } from './authorization.js'
import { readBearer } from './read-bearer.js'
import { admits, tryAlternative } from './try-alternative.js'

/**
 * The route's security, enforced: its own `security`, else the app's `defaultSecurity`. Its
 * alternatives are tried in order and the first that admits sets `req.auth`; when none does, the
 * first AppError a verifier threw is raised, else 401 UNAUTHORIZED with `WWW-Authenticate`. A
 * verifier's other throws go on at once (500). Synchronous unless a verifier answers later.
 */
export function authStep(security: SecurityRequirement | undefined): Step {
  // Resolved once per app (a route may be mounted in two apps with different `auth`).
  const plans = new WeakMap<ResolvedConfig, AuthPlan | null>()
  let lastConfig: ResolvedConfig | undefined
  let lastPlan: AuthPlan | null = null
  return function authenticate(req, res, config) {
    // The default secures routes, not a validate() mounted with app.use() in front of them
    // (its routes answer for themselves: a public one among them stays public).
    if (security === undefined && (config.auth.defaultSecurity === undefined || !req.route))
      return undefined
    let plan: AuthPlan | null
    if (config === lastConfig) plan = lastPlan
    else {
      const known = plans.get(config)
      plan = known === undefined ? (planAuth(security, config) ?? null) : known
      plans.set(config, plan)
      lastConfig = config
      lastPlan = plan
    }
    if (plan === null) return undefined
    if (plan.authorization && sentTwice(req))
      throw raise('BAD_REQUEST', 'Authorization must be sent once')
    return attempt(plan, req, res, config, 0, undefined)
  }
}

// The alternatives from `from` on; `failure` is the first AppError a verifier threw before.
function attempt(
  plan: AuthPlan,
  req: Request,
  res: Response,
  config: ResolvedConfig,
  from: number,
  failure: AppError | undefined,
): Promise<void> | undefined {
  const { alternatives } = plan
  for (let i = from; i < alternatives.length; i++) {
    let verdict: unknown
    try {
      verdict = tryAlternative(alternatives[i]!, req, config)
    } catch (err) {
      failure = remember(err, failure)
      continue
    }
    if (isThenable(verdict)) {
      // A verifier that answers later: the rest of the alternatives wait for it.
      return Promise.resolve(verdict).then(
        (later) =>
          admits(later) ? admit(req, later) : attempt(plan, req, res, config, i + 1, failure),
        (err: unknown) => attempt(plan, req, res, config, i + 1, remember(err, failure)),
      )
    }
    if (admits(verdict)) return admit(req, verdict)
  }
  throw refusal(plan, req, res, failure)
}

function admit(req: Request, principal: unknown): undefined {
  ;(req as { auth?: unknown }).auth = principal
  return undefined
}

// An AppError (a 403 from `AppError.forbidden()`) waits for the other alternatives; any other
// throw is a programmer error and goes on now.
function remember(err: unknown, failure: AppError | undefined): AppError {
  if (!isAppError(err)) throw err
  return failure ?? err
}

function refusal(
  plan: AuthPlan,
  req: Request,
  res: Response,
  failure: AppError | undefined,
): AppError {
  const error = failure ?? raise('UNAUTHORIZED')
  // Set before the throw, as the rate limit sets Retry-After: errorHandler sends it in any format.
  if (error.statusCode === 401 && !res.headersSent) {
    const tokenSent = plan.bearer && readBearer(req) !== MISSING
    res.setHeader('www-authenticate', tokenSent ? plan.invalidToken : plan.challenge)
  }
  return error
}
