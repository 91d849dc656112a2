import type { Request } from 'express'

/** A provider whose signing scheme `verifyWebhook` knows. */
export type WebhookProvider =
  | 'stripe'
  | 'github'
  | 'shopify'
  | 'twilio'
  | 'svix'
  | 'standard-webhooks'

/** The providers that sign a timestamp and so have a replay window (`toleranceSecs`). */
export type TimestampedWebhookProvider = 'stripe' | 'svix' | 'standard-webhooks'

/**
 * Why a request failed verification, as `onFailure` is told:
 * - `missing-signature`: the signature header is absent or empty, or holds no signature of the
 *   scheme (Stripe `v1=`) — 400 WEBHOOK_SIGNATURE_MISSING
 * - `missing-id`: the message-id header (`svix-id`, `webhook-id`) is absent — 400
 *   WEBHOOK_SIGNATURE_MISSING
 * - `missing-timestamp`: the timestamp header or Stripe's `t=` is absent — 400
 *   WEBHOOK_TIMESTAMP_MISSING
 * - `timestamp-expired`: the timestamp lies outside the replay window — 400
 *   WEBHOOK_TIMESTAMP_EXPIRED
 * - `malformed-header`: a signature or timestamp header that cannot be read (a timestamp that is
 *   not digits only, a Stripe item without `=`, two `t=`) — 401 WEBHOOK_SIGNATURE_INVALID
 * - `signature-mismatch`: no signature matches any secret (for Twilio JSON bodies also: the body
 *   does not match `bodySHA256`) — 401 WEBHOOK_SIGNATURE_INVALID
 * - `body-unread`: the request has a body that no body parser on the route read (its
 *   Content-Type is not one the route parses) — 415 INVALID_CONTENT_TYPE
 * - `raw-body-unavailable`: a body parser read the body without keeping its bytes — 500
 *   INTERNAL_ERROR whose logged message says what to mount
 */
export type WebhookFailureReason =
  | 'missing-signature'
  | 'missing-id'
  | 'missing-timestamp'
  | 'timestamp-expired'
  | 'malformed-header'
  | 'signature-mismatch'
  | 'body-unread'
  | 'raw-body-unavailable'

/** What every configuration of `verifyWebhook` takes. */
export interface WebhookCommonOptions {
  /**
   * The signing secret, or several during a rotation (a request signed with any of them passes).
   * Svix and Standard Webhooks secrets (`whsec_…`) are base64-decoded as their SDKs do; Stripe's
   * `whsec_…` is used whole, as Stripe does.
   */
  readonly secret: string | readonly string[]
  /** Called after a request passed verification, before the next handler. A throw is logged. */
  readonly onSuccess?: (req: Request) => void
  /** Called with the reason when a request fails verification. A throw is logged. */
  readonly onFailure?: (req: Request, reason: WebhookFailureReason) => void
}

/** A preset with a signed timestamp: Stripe, Svix, Standard Webhooks. */
export interface TimestampedPresetOptions extends WebhookCommonOptions {
  /** The provider whose signing scheme is checked. */
  readonly provider: TimestampedWebhookProvider
  /** The replay window in seconds (Stripe: past only; Svix, Standard Webhooks: both ways). @default 300 */
  readonly toleranceSecs?: number
}

/** A preset without a timestamp: GitHub, Shopify. */
export interface PlainPresetOptions extends WebhookCommonOptions {
  /** The provider whose signing scheme is checked. */
  readonly provider: 'github' | 'shopify'
}

/** Twilio: the signature covers the public URL Twilio called. */
export interface TwilioPresetOptions extends WebhookCommonOptions {
  /** Twilio's signing scheme. */
  readonly provider: 'twilio'
  /**
   * The public URL Twilio called. A string is the public origin (`https://api.example.com`, no
   * path): the request's path and query (`req.originalUrl`) are appended. A function returns the
   * full URL for a request. @default protocol and host from the request, honouring the app's
   * `trust proxy` (X-Forwarded-Proto, X-Forwarded-Host), then `req.originalUrl`
   */
  readonly publicUrl?: string | ((req: Request) => string)
}

/**
 * Your own scheme: an HMAC of the raw body (or of `${timestamp}.${rawBody}` when
 * `timestampHeader` is given) in one header.
 */
export interface CustomWebhookOptions extends WebhookCommonOptions {
  /** Left out: the options below describe the scheme. */
  readonly provider?: undefined
  /** The header carrying the signature. */
  readonly headerName: string
  /** The HMAC's hash (any of `crypto.getHashes()`). @default 'sha256' */
  readonly algorithm?: string
  /** Stripped from the header value before comparing, e.g. `'sha256='`. @default '' */
  readonly prefix?: string
  /** How the signature is written. @default 'hex' */
  readonly encoding?: 'hex' | 'base64'
  /** A header holding the Unix time in seconds the sender signed; enables the replay window. */
  readonly timestampHeader?: string
  /** The replay window in seconds, both ways, with `timestampHeader`. @default 300 */
  readonly toleranceSecs?: number
}

/** The options of `verifyWebhook`: a provider preset, or a scheme of your own. */
export type VerifyWebhookOptions =
  | TimestampedPresetOptions
  | PlainPresetOptions
  | TwilioPresetOptions
  | CustomWebhookOptions
