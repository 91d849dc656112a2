import type { Request } from 'express'
import { routePatternOf } from '../host/route-pattern.js'
import { type Attributes, type CounterLike, type MeterProviderLike, otelApi } from './otel-api.js'

/** The instrumentation scope shapeguard's meter is named by (a test keeps the version in step). */
export const SCOPE = Object.freeze({ name: 'shapeguard', version: '1.0.0' })

interface Counters {
  readonly validationFailures: CounterLike
  readonly rateLimitRejections: CounterLike
  readonly webhookVerifications: CounterLike
}

// The counters of the meter provider they were made by: the API hands out no-op meters until an
// SDK registers one, which may happen after the first request.
let made: { readonly provider: MeterProviderLike; readonly counters: Counters } | undefined

function counters(): Counters | undefined {
  const api = otelApi()
  if (api === null) return undefined
  const provider = api.metrics.getMeterProvider()
  if (made?.provider !== provider) {
    const meter = provider.getMeter(SCOPE.name, SCOPE.version)
    made = {
      provider,
      counters: {
        validationFailures: meter.createCounter('shapeguard.validation.failures', {
          description: 'Requests refused because a part failed its schema',
          unit: '{failure}',
        }),
        rateLimitRejections: meter.createCounter('shapeguard.rate_limit.rejections', {
          description: 'Requests refused by a rate limit (429)',
          unit: '{rejection}',
        }),
        webhookVerifications: meter.createCounter('shapeguard.webhook.verifications', {
          description: 'Webhook signature checks, by provider and outcome',
          unit: '{verification}',
        }),
      },
    }
  }
  return made.counters
}

// `http.route` only when the request matched a route (a `use()` middleware has none).
function routeAttributes(req: Request): Attributes {
  const route = routePatternOf(req)
  return route === undefined ? {} : { 'http.route': route }
}

/** Counts a request part that failed validation, by route as registered and part. */
export function countValidationFailure(req: Request, part: string): void {
  const counter = counters()?.validationFailures
  if (counter === undefined) return
  const attributes = routeAttributes(req)
  attributes['shapeguard.validation.part'] = part
  counter.add(1, attributes)
}

/** Counts a request a rate limit refused, by route as registered. */
export function countRateLimitRejection(req: Request): void {
  counters()?.rateLimitRejections.add(1, routeAttributes(req))
}

/**
 * Counts a webhook verification by provider (`github`, …, `custom`) and outcome (`verified`, or
 * why it failed: `signature-mismatch`, …).
 */
export function countWebhookVerification(provider: string, outcome: string): void {
  counters()?.webhookVerifications.add(1, {
    'shapeguard.webhook.provider': provider,
    'shapeguard.webhook.outcome': outcome,
  })
}

/** Test hook: forget the counters, made again on next use. */
export function resetCounters(): void {
  made = undefined
}
