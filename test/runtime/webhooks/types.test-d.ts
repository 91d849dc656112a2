import type { Request } from 'express'
import { describe, expectTypeOf, it } from 'vitest'
import {
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookFailureReason,
  type WebhookProvider,
} from '../../../src/index.js'

describe('verifyWebhook types', () => {
  it('names the presets as a union', () => {
    expectTypeOf<WebhookProvider>().toEqualTypeOf<
      'stripe' | 'github' | 'shopify' | 'twilio' | 'svix' | 'standard-webhooks'
    >()
    // @ts-expect-error not a preset
    verifyWebhook({ provider: 'paypal', secret: 's' })
  })

  it('gives onFailure a union of reasons', () => {
    expectTypeOf<WebhookFailureReason>().toEqualTypeOf<
      | 'missing-signature'
      | 'missing-id'
      | 'missing-timestamp'
      | 'timestamp-expired'
      | 'malformed-header'
      | 'signature-mismatch'
      | 'body-unread'
      | 'raw-body-unavailable'
    >()
    verifyWebhook({
      provider: 'stripe',
      secret: 'whsec_x',
      onFailure: (req, reason) => {
        expectTypeOf(req).toEqualTypeOf<Request>()
        expectTypeOf(reason).toEqualTypeOf<WebhookFailureReason>()
      },
    })
  })

  it('takes each option only where it means something', () => {
    verifyWebhook({ provider: 'svix', secret: ['whsec_a', 'whsec_b'], toleranceSecs: 60 })
    verifyWebhook({
      provider: 'twilio',
      secret: 't',
      publicUrl: (req) => `https://a.example${req.originalUrl}`,
    })
    verifyWebhook({ headerName: 'x-sig', secret: 's', timestampHeader: 'x-ts', toleranceSecs: 60 })
    // @ts-expect-error GitHub signs no timestamp
    verifyWebhook({ provider: 'github', secret: 's', toleranceSecs: 60 })
    // @ts-expect-error publicUrl is Twilio's
    verifyWebhook({ provider: 'stripe', secret: 's', publicUrl: 'https://a.example' })
    // @ts-expect-error a custom scheme needs its header
    verifyWebhook({ secret: 's' })
    // @ts-expect-error encoding is hex or base64
    verifyWebhook({ headerName: 'x-sig', secret: 's', encoding: 'base32' })
    expectTypeOf<{ provider: 'github'; secret: string }>().toExtend<VerifyWebhookOptions>()
  })
})
