import type { AppError } from '../core/app-error.js'
import { raise } from '../core/app-error.js'
import type { WebhookFailureReason } from './types.js'

/** The integrator's fix, logged with the 500 when a parser kept no raw bytes. */
export const RAW_BODY_MISSING_MESSAGE =
  'verifyWebhook: req.body was parsed but its raw bytes were not kept, and a webhook signature ' +
  "covers the raw bytes. Mount express.raw({ type: '*/*' }) on this route before verifyWebhook, " +
  'or keep the bytes beside the parsed body with express.json({ verify: rawBody() }) ' +
  "(rawBody from 'shapeguard'). The body is never re-serialised to check a signature."

/**
 * The error a failure reason answers with. `header` names the header concerned (never its value).
 */
export function failureError(reason: WebhookFailureReason, header: string): AppError<null> {
  switch (reason) {
    case 'missing-signature':
      return raise('WEBHOOK_SIGNATURE_MISSING', `Webhook signature header ${header} is missing`)
    case 'missing-id':
      return raise('WEBHOOK_SIGNATURE_MISSING', `Webhook id header ${header} is missing`)
    case 'missing-timestamp':
      return raise('WEBHOOK_TIMESTAMP_MISSING', `Webhook timestamp in ${header} is missing`)
    case 'timestamp-expired':
      return raise('WEBHOOK_TIMESTAMP_EXPIRED')
    case 'malformed-header':
      return raise('WEBHOOK_SIGNATURE_INVALID', `Webhook header ${header} is malformed`)
    case 'signature-mismatch':
      return raise('WEBHOOK_SIGNATURE_INVALID')
    case 'body-unread':
      return raise('INVALID_CONTENT_TYPE', 'Content-Type is not accepted by this webhook route')
    case 'raw-body-unavailable':
      return raise('INTERNAL_ERROR', RAW_BODY_MISSING_MESSAGE)
  }
}
