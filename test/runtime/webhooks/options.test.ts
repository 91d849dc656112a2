import { describe, expect, it } from 'vitest'
import { type VerifyWebhookOptions, verifyWebhook } from '../../../src/index.js'

// Every mistake in the options throws when the middleware is created, naming the option.
const create = (options: unknown) => () => verifyWebhook(options as VerifyWebhookOptions)

describe('verifyWebhook options', () => {
  it('rejects a missing, empty or non-string secret, and an empty rotation list', () => {
    expect(create({ provider: 'github' })).toThrow(
      /verifyWebhook\(\): secret must be a non-empty string/,
    )
    expect(create({ provider: 'github', secret: '' })).toThrow(/secret must be a non-empty string/)
    expect(create({ provider: 'stripe', secret: 42 })).toThrow(TypeError)
    expect(create({ provider: 'stripe', secret: [] })).toThrow(/must not be an empty array/)
    expect(create({ provider: 'stripe', secret: ['whsec_a', ''] })).toThrow(/secret\[1\] must be/)
  })

  it('rejects a whsec_ secret that is not base64 for Svix and Standard Webhooks', () => {
    expect(create({ provider: 'svix', secret: 'whsec_not base64!' })).toThrow(
      /base64 signing secret/,
    )
    expect(create({ provider: 'standard-webhooks', secret: 'whsec_' })).toThrow(TypeError)
    expect(create({ provider: 'svix', secret: 'whsec_c2VjcmV0' })).not.toThrow()
    // Stripe keys its HMAC with the whole whsec_ string: no decoding, any text.
    expect(create({ provider: 'stripe', secret: 'whsec_not base64!' })).not.toThrow()
  })

  it('rejects an unknown provider, including inherited names', () => {
    expect(create({ provider: 'paypal', secret: 's' })).toThrow(
      /provider must be one of stripe, github, shopify, twilio, svix, standard-webhooks/,
    )
    expect(create({ provider: 'toString', secret: 's' })).toThrow(/provider must be one of/)
    expect(create(null)).toThrow(/options must be an object/)
  })

  it('rejects options a preset does not take', () => {
    expect(create({ provider: 'github', secret: 's', toleranceSecs: 60 })).toThrow(
      /toleranceSecs is not an option of the github preset/,
    )
    expect(create({ provider: 'stripe', secret: 's', headerName: 'x' })).toThrow(
      /headerName is not an option of the stripe preset/,
    )
    expect(
      create({ provider: 'svix', secret: 'whsec_c2VjcmV0', publicUrl: 'https://a.example' }),
    ).toThrow(/publicUrl/)
  })

  it('checks toleranceSecs, hooks and publicUrl', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, '300']) {
      expect(create({ provider: 'stripe', secret: 's', toleranceSecs: bad })).toThrow(
        /toleranceSecs must be an integer of at least 1/,
      )
    }
    expect(create({ provider: 'github', secret: 's', onSuccess: 'yes' })).toThrow(
      /onSuccess must be a function/,
    )
    expect(create({ provider: 'github', secret: 's', onFailure: {} })).toThrow(
      /onFailure must be a function/,
    )
    for (const bad of [
      'api.example.com',
      'ftp://a.example',
      'https://a.example/hooks',
      'https://a.example?x=1',
      7,
    ]) {
      expect(create({ provider: 'twilio', secret: 's', publicUrl: bad })).toThrow(
        /publicUrl must be/,
      )
    }
    expect(
      create({ provider: 'twilio', secret: 's', publicUrl: 'https://a.example/' }),
    ).not.toThrow()
  })

  it('checks a custom scheme: header names, algorithm, encoding, prefix, timestamp', () => {
    expect(create({ secret: 's' })).toThrow(
      /headerName \(needed without a provider\) must be an HTTP header name/,
    )
    expect(create({ secret: 's', headerName: 'x sig' })).toThrow(/headerName/)
    expect(create({ secret: 's', headerName: 'x-sig', algorithm: 'nope' })).toThrow(
      /algorithm must be a hash/,
    )
    // A hash HMAC cannot use (an extendable-output function) is refused at creation too.
    expect(create({ secret: 's', headerName: 'x-sig', algorithm: 'shake128' })).toThrow(
      /algorithm must be a hash/,
    )
    expect(create({ secret: 's', headerName: 'x-sig', encoding: 'base32' })).toThrow(
      /encoding must be 'hex' or 'base64'/,
    )
    expect(create({ secret: 's', headerName: 'x-sig', prefix: 1 })).toThrow(
      /prefix must be a string/,
    )
    expect(create({ secret: 's', headerName: 'x-sig', toleranceSecs: 60 })).toThrow(
      /toleranceSecs needs timestampHeader/,
    )
    expect(create({ secret: 's', headerName: 'x-sig', timestampHeader: '' })).toThrow(
      /timestampHeader must be an HTTP header name/,
    )
    expect(create({ secret: 's', headerName: 'x-sig', provider: undefined, colour: 1 })).toThrow(
      /colour is not an option of a custom scheme/,
    )
    expect(
      create({
        secret: 's',
        headerName: 'X-Sig',
        algorithm: 'sha512',
        encoding: 'base64',
        prefix: 'v1=',
        timestampHeader: 'X-Ts',
        toleranceSecs: 30,
      }),
    ).not.toThrow()
  })
})
