import type { KeyObject } from 'node:crypto'
import type { Verifier } from './scheme.js'
import { signedHeaderScheme } from './signed-header.js'
import { stripeScheme } from './stripe.js'
import { svixScheme } from './svix.js'
import { twilioScheme } from './twilio.js'
import type { PublicUrl } from './twilio-url.js'
import type { WebhookProvider } from './types.js'

/** What a preset is built from, resolved and checked. */
export interface PresetInput {
  readonly keys: readonly KeyObject[]
  readonly toleranceSecs: number
  readonly publicUrl: PublicUrl
}

/** One provider's scheme: how its secret becomes a key, which options it takes, its check. */
export interface Preset {
  /** `utf8`: the secret's text is the key; `whsec`: base64 after an optional `whsec_`. */
  readonly secret: 'utf8' | 'whsec'
  /** Options beyond `provider`, `secret`, `onSuccess` and `onFailure`. */
  readonly options: readonly string[]
  readonly build: (input: PresetInput) => Verifier
}

/** Every provider preset, by name. */
export const presets: { readonly [P in WebhookProvider]: Preset } = {
  stripe: {
    secret: 'utf8',
    options: ['toleranceSecs'],
    build: ({ keys, toleranceSecs }) => stripeScheme(keys, toleranceSecs),
  },
  github: {
    secret: 'utf8',
    options: [],
    build: ({ keys }) =>
      signedHeaderScheme(keys, {
        header: 'x-hub-signature-256',
        algorithm: 'sha256',
        encoding: 'hex',
        prefix: 'sha256=',
      }),
  },
  shopify: {
    secret: 'utf8',
    options: [],
    build: ({ keys }) =>
      signedHeaderScheme(keys, {
        header: 'x-shopify-hmac-sha256',
        algorithm: 'sha256',
        encoding: 'base64',
        prefix: '',
      }),
  },
  twilio: {
    secret: 'utf8',
    options: ['publicUrl'],
    build: ({ keys, publicUrl }) => twilioScheme(keys, publicUrl),
  },
  svix: {
    secret: 'whsec',
    options: ['toleranceSecs'],
    build: ({ keys, toleranceSecs }) => svixScheme('svix', keys, toleranceSecs),
  },
  'standard-webhooks': {
    secret: 'whsec',
    options: ['toleranceSecs'],
    build: ({ keys, toleranceSecs }) => svixScheme('webhook', keys, toleranceSecs),
  },
}
