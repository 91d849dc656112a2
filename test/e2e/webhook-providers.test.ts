import { createHmac } from 'node:crypto'
import { sign as octokitSign } from '@octokit/webhooks-methods'
import '@shopify/shopify-api/adapters/node'
import { ApiVersion, shopifyApi } from '@shopify/shopify-api'
import { Webhook as StandardWebhook } from 'standardwebhooks'
import Stripe from 'stripe'
import request from 'supertest'
import { Webhook as SvixWebhook } from 'svix'
import { beforeAll, describe, expect, it } from 'vitest'
import { configureLogger } from '../../src/index.js'
import { hosts } from '../support/e2e.js'
import { webhookApp } from '../support/webhook-app.js'

beforeAll(() => configureLogger({ silent: true }))

const stripe = new Stripe('sk_test_offline')
const payload = '{"id":"evt_1","type":"ping","data":{"amount":4200,"note":"é ✓"}}'
const now = () => Math.floor(Date.now() / 1000)

describe.each(hosts)(
  '%s: each preset accepts what the provider’s own library signs',
  (_, express) => {
    it('stripe: generateTestHeaderString, with a rotated secret and several v1 signatures', async () => {
      const secret = 'whsec_stripe_test_secret'
      const app = webhookApp(express, { provider: 'stripe', secret: ['whsec_old', secret] })
      const header = stripe.webhooks.generateTestHeaderString({ payload, secret })
      const ok = await request(app)
        .post('/hook')
        .set('Stripe-Signature', header)
        .type('json')
        .send(payload)
      expect(ok.status).toBe(200)
      // Stripe sends one v1 per active secret during a rotation: any may match.
      const other = stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' })
      const both = `${header},v1=${other.split('v1=')[1]}`
      expect(
        (await request(app).post('/hook').set('Stripe-Signature', both).type('json').send(payload))
          .status,
      ).toBe(200)
      // Stripe's own verifier agrees with the header it made.
      expect(stripe.webhooks.constructEvent(payload, header, secret).id).toBe('evt_1')
      const tampered = await request(app)
        .post('/hook')
        .set('Stripe-Signature', header)
        .type('json')
        .send(payload.replace('4200', '4201'))
      expect([tampered.status, tampered.body.error.code]).toEqual([
        401,
        'WEBHOOK_SIGNATURE_INVALID',
      ])
    })

    it('stripe: past-only window with its tolerance, toleranceSecs honoured', async () => {
      const secret = 'whsec_window'
      const app = webhookApp(express, { provider: 'stripe', secret })
      const at = (timestamp: number) =>
        stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp })
      const send = (header: string) =>
        request(app).post('/hook').set('Stripe-Signature', header).type('json').send(payload)
      expect((await send(at(now() - 290))).status).toBe(200)
      expect((await send(at(now() + 3600))).status).toBe(200) // Stripe checks the past only
      const old = await send(at(now() - 400))
      expect([old.status, old.body.error.code]).toEqual([400, 'WEBHOOK_TIMESTAMP_EXPIRED'])
      const wide = webhookApp(express, { provider: 'stripe', secret, toleranceSecs: 600 })
      expect(
        (
          await request(wide)
            .post('/hook')
            .set('Stripe-Signature', at(now() - 400))
            .type('json')
            .send(payload)
        ).status,
      ).toBe(200)
    })

    it('github: @octokit/webhooks-methods sign, and GitHub’s published test vector', async () => {
      const secret = "It's a Secret to Everybody"
      const app = webhookApp(express, { provider: 'github', secret })
      const signature = await octokitSign(secret, payload)
      expect(
        (
          await request(app)
            .post('/hook')
            .set('X-Hub-Signature-256', signature)
            .type('json')
            .send(payload)
        ).status,
      ).toBe(200)
      // docs.github.com, "Validating webhook deliveries": the body "Hello, World!" with this secret.
      const vector = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17'
      expect(await octokitSign(secret, 'Hello, World!')).toBe(vector)
      const res = await request(app)
        .post('/hook')
        .set('X-Hub-Signature-256', vector)
        .type('text')
        .send('Hello, World!')
      expect(res.status).toBe(200)
      const upper = await request(app)
        .post('/hook')
        .set('X-Hub-Signature-256', vector.toUpperCase())
        .type('text')
        .send('Hello, World!')
      expect(upper.status).toBe(401)
    })

    it('shopify: its documented HMAC, judged the same by @shopify/shopify-api’s webhooks.validate', async () => {
      const secret = 'shpss_offline_secret'
      const shopify = shopifyApi({
        apiKey: 'key',
        apiSecretKey: secret,
        scopes: [],
        hostName: 'example.com',
        apiVersion: ApiVersion.October24,
        isEmbeddedApp: false,
        logger: { level: 0, log: async () => {} },
      })
      const app = webhookApp(express, { provider: 'shopify', secret }, 'raw', {
        configure: (a) => {
          a.post('/oracle', express.raw({ type: '*/*' }), async (req, res) => {
            const result = await shopify.webhooks.validate({
              rawBody: req.body.toString('utf8'),
              rawRequest: req,
              rawResponse: res,
            })
            res.json({ valid: result.valid })
          })
        },
      })
      const hmac = createHmac('sha256', secret).update(payload, 'utf8').digest('base64')
      const shopHeaders = {
        'X-Shopify-Topic': 'orders/create',
        'X-Shopify-Api-Version': '2024-10',
        'X-Shopify-Shop-Domain': 'shop.myshopify.com',
        'X-Shopify-Webhook-Id': 'w1',
        'X-Shopify-Event-Id': 'e1',
        'X-Shopify-Triggered-At': '2024-01-01T00:00:00Z',
      }
      for (const [signature, body, valid] of [
        [hmac, payload, true],
        [hmac, payload.replace('ping', 'pong'), false],
        [createHmac('sha256', 'wrong').update(payload).digest('base64'), payload, false],
      ] as const) {
        const send = (path: string) =>
          request(app)
            .post(path)
            .set(shopHeaders)
            .set('X-Shopify-Hmac-Sha256', signature)
            .type('json')
            .send(body)
        expect((await send('/oracle')).body.valid).toBe(valid)
        expect((await send('/hook')).status).toBe(valid ? 200 : 401)
      }
    })

    it('svix: Webhook.sign with a whsec_ secret, several signatures, and Svix’s published vector', async () => {
      const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
      const wh = new SvixWebhook(secret)
      // docs.svix.com, "Verifying payloads manually": this id, timestamp, body and secret.
      const vector = wh.sign(
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        new Date(1614265330 * 1000),
        '{"test": 2432232314}',
      )
      expect(vector).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=')
      const app = webhookApp(express, { provider: 'svix', secret })
      const id = 'msg_2abc'
      const ts = now()
      const signature = wh.sign(id, new Date(ts * 1000), payload)
      const send = (sig: string, at = ts) =>
        request(app)
          .post('/hook')
          .set({ 'svix-id': id, 'svix-timestamp': String(at), 'svix-signature': sig })
          .type('json')
          .send(payload)
      expect((await send(signature)).status).toBe(200)
      expect((await send(`v1a,ed25519sig v1,Zm9yZ2Vk ${signature}`)).status).toBe(200)
      expect(
        wh.verify(payload, {
          'svix-id': id,
          'svix-timestamp': String(ts),
          'svix-signature': signature,
        }),
      ).toBeTruthy()
      const future = wh.sign(id, new Date((ts + 400) * 1000), payload)
      expect((await send(future, ts + 400)).body.error.code).toBe('WEBHOOK_TIMESTAMP_EXPIRED')
      const past = wh.sign(id, new Date((ts - 400) * 1000), payload)
      expect((await send(past, ts - 400)).body.error.code).toBe('WEBHOOK_TIMESTAMP_EXPIRED')
    })

    it('standard-webhooks: Webhook.sign, webhook-* headers, rotation across secrets', async () => {
      const oldSecret = 'whsec_' + Buffer.from('old secret bytes, 24 long').toString('base64')
      const secret = 'whsec_' + Buffer.from('standard webhooks secret').toString('base64')
      const app = webhookApp(
        express,
        { provider: 'standard-webhooks', secret: [oldSecret, secret] },
        'json-verify',
      )
      const ts = now()
      for (const key of [oldSecret, secret]) {
        const signature = new StandardWebhook(key).sign('msg_1', new Date(ts * 1000), payload)
        const res = await request(app)
          .post('/hook')
          .set({
            'webhook-id': 'msg_1',
            'webhook-timestamp': String(ts),
            'webhook-signature': signature,
          })
          .type('json')
          .send(payload)
        expect([res.status, res.body.body.id]).toEqual([200, 'evt_1'])
      }
      const svixHeaders = await request(app)
        .post('/hook')
        .set({
          'svix-id': 'msg_1',
          'svix-timestamp': String(ts),
          'svix-signature': new StandardWebhook(secret).sign('msg_1', new Date(ts * 1000), payload),
        })
        .type('json')
        .send(payload)
      expect(svixHeaders.body.error.code).toBe('WEBHOOK_SIGNATURE_MISSING')
    })
  },
)
