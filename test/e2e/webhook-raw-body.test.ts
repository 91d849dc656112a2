import { createHmac } from 'node:crypto'
import { sign as octokitSign } from '@octokit/webhooks-methods'
import request from 'supertest'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { configureLogger, type WebhookFailureReason } from '../../src/index.js'
import { RAW_BODY_MISSING_MESSAGE } from '../../src/runtime/webhooks/failures.js'
import { captureLogger, hosts, withLogging } from '../support/e2e.js'
import { webhookApp } from '../support/webhook-app.js'

beforeAll(() => configureLogger({ silent: true }))
afterEach(() => configureLogger({ silent: true }))

const secret = 'gh_secret'
const body = '{"action":"opened","number":7}'

describe.each(hosts)('%s: the raw body', (_, express) => {
  it('express.raw(): the handler gets the bytes; json with rawBody(): the parsed object', async () => {
    const signature = await octokitSign(secret, body)
    for (const [setup, expected] of [
      ['raw', 'buffer'],
      ['json-verify', { action: 'opened', number: 7 }],
    ] as const) {
      const app = webhookApp(express, { provider: 'github', secret }, setup)
      const res = await request(app)
        .post('/hook')
        .set('X-Hub-Signature-256', signature)
        .type('json')
        .send(body)
      expect([res.status, res.body.body]).toEqual([200, expected])
    }
  })

  it('checks the bytes as sent: whitespace the JSON parser drops still counts', async () => {
    const spaced = '{ "action": "opened",\n  "number": 7 }'
    const app = webhookApp(express, { provider: 'github', secret }, 'json-verify')
    const ok = await request(app)
      .post('/hook')
      .set('X-Hub-Signature-256', await octokitSign(secret, spaced))
      .type('json')
      .send(spaced)
    expect(ok.status).toBe(200)
    const reserialised = await octokitSign(secret, JSON.stringify(JSON.parse(spaced)))
    const res = await request(app)
      .post('/hook')
      .set('X-Hub-Signature-256', reserialised)
      .type('json')
      .send(spaced)
    expect(res.status).toBe(401)
  })

  it('a parsed body without its bytes is a 500 whose logged message says what to mount', () =>
    withLogging(async () => {
      const logger = captureLogger()
      const reasons: WebhookFailureReason[] = []
      const onFailure = (_req: unknown, reason: WebhookFailureReason) => void reasons.push(reason)
      const app = webhookApp(express, { provider: 'github', secret, onFailure }, 'json', { logger })
      const signature = await octokitSign(secret, body)
      const res = await request(app)
        .post('/hook')
        .set('X-Hub-Signature-256', signature)
        .type('json')
        .send(body)
      expect([res.status, res.body.error.code]).toEqual([500, 'INTERNAL_ERROR'])
      expect(reasons).toEqual(['raw-body-unavailable'])
      const errors = logger.records.filter((r) => r.level === 'error')
      expect(JSON.stringify(errors)).toContain("Mount express.raw({ type: '*/*' }) on this route")
      expect(JSON.stringify(errors)).toContain('express.json({ verify: rawBody() })')
      expect(RAW_BODY_MISSING_MESSAGE).toContain('never re-serialised')
    }))

  it('a body no parser read (a Content-Type the route does not parse) is a 415, not a 500', async () => {
    const reasons: WebhookFailureReason[] = []
    const onFailure = (_req: unknown, reason: WebhookFailureReason) => void reasons.push(reason)
    for (const setup of ['json-verify', 'none'] as const) {
      const app = webhookApp(express, { provider: 'github', secret, onFailure }, setup)
      const res = await request(app)
        .post('/hook')
        .set('X-Hub-Signature-256', await octokitSign(secret, body))
        .type('text')
        .send(body)
      expect([res.status, res.body.error.code]).toEqual([415, 'INVALID_CONTENT_TYPE'])
    }
    expect(reasons).toEqual(['body-unread', 'body-unread'])
  })

  it('a request without a body is checked against the empty body', async () => {
    const app = webhookApp(express, { provider: 'github', secret }, 'json-verify')
    const signature = `sha256=${createHmac('sha256', secret).digest('hex')}`
    expect((await request(app).get('/hook').set('X-Hub-Signature-256', signature)).status).toBe(200)
    expect(
      (
        await request(app)
          .get('/hook')
          .set('X-Hub-Signature-256', await octokitSign(secret, 'x'))
      ).status,
    ).toBe(401)
  })
})

describe.each(hosts)('%s: failures and hooks', (_, express) => {
  const cases: Array<[string, Record<string, string>, number, string, WebhookFailureReason]> = [
    ['no signature', {}, 400, 'WEBHOOK_SIGNATURE_MISSING', 'missing-signature'],
    [
      'an empty signature',
      { 'stripe-signature': '' },
      400,
      'WEBHOOK_SIGNATURE_MISSING',
      'missing-signature',
    ],
    [
      'no v1',
      { 'stripe-signature': 't=1700000000,v0=ab' },
      400,
      'WEBHOOK_SIGNATURE_MISSING',
      'missing-signature',
    ],
    [
      'no t',
      { 'stripe-signature': 'v1=ab' },
      400,
      'WEBHOOK_TIMESTAMP_MISSING',
      'missing-timestamp',
    ],
    [
      'two t',
      { 'stripe-signature': 't=1,t=2,v1=ab' },
      401,
      'WEBHOOK_SIGNATURE_INVALID',
      'malformed-header',
    ],
    [
      'an exponent',
      { 'stripe-signature': 't=1.7e9,v1=ab' },
      401,
      'WEBHOOK_SIGNATURE_INVALID',
      'malformed-header',
    ],
    [
      'a signed t',
      { 'stripe-signature': 't=+1700000000,v1=ab' },
      401,
      'WEBHOOK_SIGNATURE_INVALID',
      'malformed-header',
    ],
    [
      'an item without =',
      { 'stripe-signature': 't=1700000000,v1' },
      401,
      'WEBHOOK_SIGNATURE_INVALID',
      'malformed-header',
    ],
    [
      'an old t',
      { 'stripe-signature': 't=1000,v1=ab' },
      400,
      'WEBHOOK_TIMESTAMP_EXPIRED',
      'timestamp-expired',
    ],
    [
      'a wrong v1',
      { 'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=ab` },
      401,
      'WEBHOOK_SIGNATURE_INVALID',
      'signature-mismatch',
    ],
  ]
  it.each(cases)('%s: %#', async (_name, headers, status, code, reason) => {
    const reasons: WebhookFailureReason[] = []
    const app = webhookApp(express, {
      provider: 'stripe',
      secret: 'whsec_x',
      onFailure: (_r, why) => void reasons.push(why),
    })
    const res = await request(app).post('/hook').set(headers).type('json').send(body)
    expect([res.status, res.body.error.code, reasons]).toEqual([status, code, [reason]])
    expect(res.body.error.message).not.toContain('1700000000')
  })

  it('svix: a missing id is its own reason', async () => {
    const reasons: WebhookFailureReason[] = []
    const app = webhookApp(express, {
      provider: 'svix',
      secret: 'whsec_c2VjcmV0',
      onFailure: (_r, why) => void reasons.push(why),
    })
    const res = await request(app)
      .post('/hook')
      .set({ 'svix-signature': 'v1,abc', 'svix-timestamp': '1' })
      .send(body)
    expect([res.status, res.body.error.code, res.body.error.message, reasons]).toEqual([
      400,
      'WEBHOOK_SIGNATURE_MISSING',
      'Webhook id header svix-id is missing',
      ['missing-id'],
    ])
  })

  it('onSuccess runs after success; throwing or rejecting hooks are logged and change nothing', () =>
    withLogging(async () => {
      const logger = captureLogger()
      const seen: string[] = []
      const app = webhookApp(
        express,
        {
          provider: 'github',
          secret,
          onSuccess: (req) => {
            seen.push(`success ${req.path}`)
            throw new Error('hook bug')
          },
          onFailure: async () => {
            seen.push('failure')
            throw new Error('async hook bug')
          },
        },
        'raw',
        { logger },
      )
      const ok = await request(app)
        .post('/hook')
        .set('X-Hub-Signature-256', await octokitSign(secret, body))
        .type('json')
        .send(body)
      const bad = await request(app)
        .post('/hook')
        .set('X-Hub-Signature-256', 'sha256=00')
        .type('json')
        .send(body)
      await new Promise((resolve) => setImmediate(resolve))
      expect([ok.status, bad.status, seen]).toEqual([200, 401, ['success /hook', 'failure']])
      const hooks = logger.records.filter((r) => r.message?.startsWith('verifyWebhook: the'))
      expect(hooks.map((r) => [r.level, r.message])).toEqual([
        ['error', 'verifyWebhook: the onSuccess hook threw; the answer is unchanged'],
        ['error', 'verifyWebhook: the onFailure hook threw; the answer is unchanged'],
      ])
    }))
})
