import type { NextFunction, Request, RequestHandler, Response } from 'express'
import { logger } from '../logging/logger.js'
import { countWebhookVerification } from '../telemetry/metrics.js'
import { failureError } from './failures.js'
import { resolveWebhookOptions } from './options.js'
import { findRawBody } from './raw-body.js'
import { failure, type WebhookFailure } from './scheme.js'
import type { VerifyWebhookOptions } from './types.js'

const bodyUnread = failure('body-unread', 'content-type')
const rawBodyUnavailable = failure('raw-body-unavailable', 'content-type')

// A hook's failure is the application's bug: logged with its stack, never changing the answer.
function runHook(name: string, hook: () => unknown): void {
  try {
    const result = hook()
    if (result instanceof Promise) result.catch((err: unknown) => reportHook(name, err))
  } catch (err) {
    reportHook(name, err)
  }
}

function reportHook(name: string, err: unknown): void {
  try {
    logger.error(
      { stack: err instanceof Error ? err.stack : typeof err },
      `verifyWebhook: the ${name} hook threw; the answer is unchanged`,
    )
  } catch {
    // A broken logger must not break the request either.
  }
}

/**
 * Verifies a webhook's signature over the request's raw bytes, with a provider's preset or a
 * scheme of your own; a failing request goes to the error middleware as WEBHOOK_* (see the
 * README's Webhooks section). Mount `express.raw()`, or a body parser with `verify: rawBody()`,
 * before it. Options are checked here: a bad one throws a TypeError.
 * @param options `{ provider, secret }`, or `{ headerName, secret, algorithm?, prefix?, encoding?, timestampHeader?, toleranceSecs? }`
 * @example app.post('/hooks/github', express.raw({ type: 'application/json' }), verifyWebhook({ provider: 'github', secret: process.env.GITHUB_WEBHOOK_SECRET! }), handler)
 */
export function verifyWebhook(options: VerifyWebhookOptions): RequestHandler {
  const { provider, verify, onSuccess, onFailure } = resolveWebhookOptions(options)

  function reject(req: Request, next: NextFunction, failed: WebhookFailure): void {
    countWebhookVerification(provider, failed.reason)
    if (onFailure !== undefined) runHook('onFailure', () => onFailure(req, failed.reason))
    next(failureError(failed.reason, failed.header))
  }

  return function verifyWebhook(req: Request, _res: Response, next: NextFunction): void {
    const body = findRawBody(req)
    const failed =
      body === 'unread' ? bodyUnread : body === 'parsed' ? rawBodyUnavailable : verify(req, body)
    if (failed !== undefined) {
      reject(req, next, failed)
      return
    }
    countWebhookVerification(provider, 'verified')
    if (onSuccess !== undefined) runHook('onSuccess', () => onSuccess(req))
    next()
  }
}
