import { createHmac } from 'node:crypto'
import { sign as octokitSign } from '@octokit/webhooks-methods'
import fc from 'fast-check'
import { Webhook as StandardWebhook } from 'standardwebhooks'
import Stripe from 'stripe'
import { Webhook as SvixWebhook } from 'svix'
import twilio from 'twilio'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configureLogger, type VerifyWebhookOptions } from '../../src/index.js'
import { hosts } from '../support/e2e.js'
import { type Served, serve } from '../support/serve.js'
import { webhookApp } from '../support/webhook-app.js'

// A genuine request always passes; changing its body, signature, timestamp, id, secret, or the
// case of a letter in its signature header never does. Each request is signed by the provider's
// own library.

// `npm run fuzz` sets FUZZ_WEBHOOK_RUNS (each run is several signed requests over HTTP).
const RUNS = Number(process.env.FUZZ_WEBHOOK_RUNS ?? 40)
const stripe = new Stripe('sk_test_offline')
const now = () => Math.floor(Date.now() / 1000)

/** What a provider signs. */
interface Message {
  secret: string
  body: string
  id: string
  ts: number
}

interface Provider {
  options: (secret: string) => VerifyWebhookOptions
  secret: fc.Arbitrary<string>
  body: fc.Arbitrary<string>
  contentType: string
  /** The signature headers for a message (the provider's own library signs it). */
  sign: (m: Message) => Promise<Record<string, string>>
  signatureHeader: string
  timestamped: boolean
  hasId: boolean
}

const text = fc.string({ unit: 'binary', maxLength: 120 })
const utf8Secret = fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 40 })
const whsec = fc
  .uint8Array({ minLength: 8, maxLength: 40 })
  .map((b) => `whsec_${Buffer.from(b).toString('base64')}`)
const formBody = fc
  .dictionary(
    fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,8}$/),
    fc.string({ unit: 'binary', maxLength: 30 }),
    { maxKeys: 6 },
  )
  .map((params) => new URLSearchParams(params).toString())

const providers: Record<string, Provider> = {
  stripe: {
    options: (secret) => ({ provider: 'stripe', secret }),
    secret: utf8Secret.map((s) => `whsec_${s}`),
    body: text,
    contentType: 'application/json',
    sign: async (m) => ({
      'Stripe-Signature': stripe.webhooks.generateTestHeaderString({
        payload: m.body,
        secret: m.secret,
        timestamp: m.ts,
      }),
    }),
    signatureHeader: 'Stripe-Signature',
    timestamped: true,
    hasId: false,
  },
  github: {
    options: (secret) => ({ provider: 'github', secret }),
    secret: utf8Secret,
    body: text.filter((b) => b !== ''),
    contentType: 'application/json',
    sign: async (m) => ({ 'X-Hub-Signature-256': await octokitSign(m.secret, m.body) }),
    signatureHeader: 'X-Hub-Signature-256',
    timestamped: false,
    hasId: false,
  },
  shopify: {
    options: (secret) => ({ provider: 'shopify', secret }),
    secret: utf8Secret,
    body: text,
    contentType: 'application/json',
    sign: async (m) => ({
      'X-Shopify-Hmac-Sha256': createHmac('sha256', m.secret)
        .update(m.body, 'utf8')
        .digest('base64'),
    }),
    signatureHeader: 'X-Shopify-Hmac-Sha256',
    timestamped: false,
    hasId: false,
  },
  twilio: {
    options: (secret) => ({ provider: 'twilio', secret, publicUrl: 'https://hooks.example.com' }),
    secret: utf8Secret,
    body: formBody,
    contentType: 'application/x-www-form-urlencoded',
    sign: async (m) => {
      const params: Record<string, string> = Object.fromEntries(new URLSearchParams(m.body))
      return {
        'X-Twilio-Signature': twilio.getExpectedTwilioSignature(
          m.secret,
          'https://hooks.example.com/hook',
          params,
        ),
      }
    },
    signatureHeader: 'X-Twilio-Signature',
    timestamped: false,
    hasId: false,
  },
  svix: {
    options: (secret) => ({ provider: 'svix', secret }),
    secret: whsec,
    body: text,
    contentType: 'application/json',
    sign: async (m) => ({
      'svix-id': m.id,
      'svix-timestamp': String(m.ts),
      'svix-signature': new SvixWebhook(m.secret).sign(m.id, new Date(m.ts * 1000), m.body),
    }),
    signatureHeader: 'svix-signature',
    timestamped: true,
    hasId: true,
  },
  'standard-webhooks': {
    options: (secret) => ({ provider: 'standard-webhooks', secret }),
    secret: whsec,
    body: text,
    contentType: 'application/json',
    sign: async (m) => ({
      'webhook-id': m.id,
      'webhook-timestamp': String(m.ts),
      'webhook-signature': new StandardWebhook(m.secret).sign(m.id, new Date(m.ts * 1000), m.body),
    }),
    signatureHeader: 'webhook-signature',
    timestamped: true,
    hasId: true,
  },
}

type Tamper = 'body' | 'signature' | 'timestamp' | 'id' | 'secret' | 'case'

function flipCase(value: string, at: number): string | undefined {
  const letters = [...value]
    .map((c, i) => [c, i] as const)
    .filter(([c]) => c.toLowerCase() !== c.toUpperCase())
  if (letters.length === 0) return undefined
  const [c, i] = letters[at % letters.length]!
  const flipped = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()
  return value.slice(0, i) + flipped + value.slice(i + 1)
}

function randomCase(name: string, seed: number): string {
  return [...name]
    .map((c, i) => ((seed >> (i % 16)) & 1 ? c.toUpperCase() : c.toLowerCase()))
    .join('')
}

describe.each(hosts)('%s: verifyWebhook properties', (_, express) => {
  const served = new Map<string, Served>()
  beforeAll(() => configureLogger({ silent: true }))
  afterAll(async () => {
    for (const s of served.values()) await s.close()
  })

  async function server(name: string, secret: string): Promise<Served> {
    const key = `${name} ${secret}`
    let s = served.get(key)
    if (s === undefined) {
      s = await serve(webhookApp(express, providers[name]!.options(secret)))
      served.set(key, s)
    }
    return s
  }

  it.each(Object.keys(providers))('%s: genuine passes, any tampering fails', async (name) => {
    const p = providers[name]!
    const tampers: Tamper[] = ['body', 'signature', 'secret', 'case']
    if (p.timestamped) tampers.push('timestamp')
    if (p.hasId) tampers.push('id')
    await fc.assert(
      fc.asyncProperty(
        p.secret,
        p.body,
        fc.stringMatching(/^msg_[A-Za-z0-9]{1,16}$/),
        fc.integer({ min: -200, max: 200 }),
        fc.constantFrom(...tampers),
        fc.nat(),
        p.body,
        p.secret,
        async (secret, body, id, skew, tamper, seed, otherBody, otherSecret) => {
          const s = await server(name, secret)
          const m: Message = { secret, body, id, ts: now() + skew }
          const signed = await p.sign(m)
          const send = (headers: Record<string, string>, payload = body) =>
            s.send('POST', '/hook', {
              headers: { 'content-type': p.contentType, ...headers },
              body: payload,
            })
          const cased = Object.fromEntries(
            Object.entries(signed).map(([k, v]) => [randomCase(k, seed), v]),
          )
          const genuine = await send(cased)
          expect(genuine.status, genuine.text).toBe(200)

          let headers = signed
          let payload = body
          switch (tamper) {
            case 'body':
              if (Buffer.from(otherBody).equals(Buffer.from(body))) return
              if (
                name === 'twilio' &&
                new URLSearchParams(otherBody).toString() === new URLSearchParams(body).toString()
              )
                return
              payload = otherBody
              break
            case 'signature': {
              const value = signed[p.signatureHeader]!
              const at = seed % value.length
              const replacement = value[at] === 'A' ? 'B' : 'A'
              headers = {
                ...signed,
                [p.signatureHeader]: value.slice(0, at) + replacement + value.slice(at + 1),
              }
              break
            }
            case 'case': {
              const flipped = flipCase(signed[p.signatureHeader]!, seed)
              if (flipped === undefined) return
              headers = { ...signed, [p.signatureHeader]: flipped }
              break
            }
            case 'secret':
              if (otherSecret === secret) return
              headers = await p.sign({ ...m, secret: otherSecret })
              break
            case 'timestamp': {
              const delta = (seed % 100) + 1
              const moved = String(m.ts + (seed % 2 ? delta : -delta))
              headers =
                name === 'stripe'
                  ? {
                      'Stripe-Signature': signed['Stripe-Signature']!.replace(
                        /^t=\d+/,
                        `t=${moved}`,
                      ),
                    }
                  : Object.fromEntries(
                      Object.entries(signed).map(([k, v]) => [
                        k,
                        k.endsWith('-timestamp') ? moved : v,
                      ]),
                    )
              break
            }
            case 'id':
              headers = Object.fromEntries(
                Object.entries(signed).map(([k, v]) => [k, k.endsWith('-id') ? `${v}x` : v]),
              )
              break
          }
          const forged = await send(headers, payload)
          expect(forged.status, `${tamper}: ${forged.text}`).not.toBe(200)
          expect([400, 401]).toContain(forged.status)
        },
      ),
      { numRuns: RUNS },
    )
  })
})
