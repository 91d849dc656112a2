import request from 'supertest'
import twilio from 'twilio'
import { beforeAll, describe, expect, it } from 'vitest'
import { configureLogger } from '../../src/index.js'
import { hosts } from '../support/e2e.js'
import { webhookApp } from '../support/webhook-app.js'

beforeAll(() => configureLogger({ silent: true }))

describe.each(hosts)('%s: the twilio preset accepts what twilio signs', (_, express) => {
  it('twilio: form parameters, signed by getExpectedTwilioSignature; Twilio’s published vector', async () => {
    const token = '12345'
    // twilio.com/docs/usage/security: this URL, these parameters and auth token 12345.
    const params = {
      CallSid: 'CA1234567890ABCDE',
      Caller: '+12349013030',
      Digits: '1234',
      From: '+12349013030',
      To: '+18005551212',
    }
    const url = 'https://mycompany.com/myapp.php?foo=1&bar=2'
    expect(twilio.getExpectedTwilioSignature(token, url, params)).toBe(
      '0/KCTR6DLpKmkAf8muzZqo1nDgQ=',
    )
    const app = webhookApp(
      express,
      {
        provider: 'twilio',
        secret: token,
        publicUrl: (req) =>
          `https://mycompany.com/myapp.php${req.originalUrl.slice('/hook'.length)}`,
      },
      'urlencoded-verify',
    )
    const res = await request(app)
      .post('/hook?foo=1&bar=2')
      .set('X-Twilio-Signature', '0/KCTR6DLpKmkAf8muzZqo1nDgQ=')
      .type('form')
      .send(new URLSearchParams(params).toString())
    expect([res.status, res.body.body.Digits]).toEqual([200, '1234'])
    const forged = await request(app)
      .post('/hook?foo=1&bar=2')
      .set('X-Twilio-Signature', '0/KCTR6DLpKmkAf8muzZqo1nDgQ=')
      .type('form')
      .send(new URLSearchParams({ ...params, Digits: '9999' }).toString())
    expect(forged.status).toBe(401)
  })

  it('twilio: a Host header that is not a plain authority cannot carry a path (no cross-route replay)', async () => {
    const token = 'twilio_auth_token'
    const params = { CallSid: 'CA1', Digits: '1' }
    const form = new URLSearchParams(params).toString()
    const app = webhookApp(express, { provider: 'twilio', secret: token }, 'urlencoded-verify')
    const signedFor = (url: string) => twilio.getExpectedTwilioSignature(token, url, params)
    const send = (host: string, signature: string) =>
      request(app)
        .post('/hook')
        .set('Host', host)
        .set('X-Twilio-Signature', signature)
        .type('form')
        .send(form)
    expect((await send('api.example.com', signedFor('http://api.example.com/hook'))).status).toBe(
      200,
    )
    // Signed by Twilio for another route of the same account, replayed here.
    const replayed = signedFor('http://api.example.com/twilio/hook')
    expect((await send('api.example.com/twilio', replayed)).status).toBe(401)
  })

  it('twilio: repeated and encoded parameters, default URL with trust proxy, validateRequest agrees', async () => {
    const token = 'twilio_auth_token'
    const app = webhookApp(express, { provider: 'twilio', secret: token }, 'raw', {
      configure: (a) => a.set('trust proxy', 'loopback'),
    })
    const body = 'Body=Hello+w%C3%B6rld+%26+more&MediaUrl=b&MediaUrl=a&To=%2B15550001&__proto__=x'
    const params = {
      Body: 'Hello wörld & more',
      MediaUrl: ['b', 'a'],
      To: '+15550001',
      ['__proto__']: 'x',
    }
    const url = 'https://hooks.example.com/hook?src=sms'
    const signature = twilio.getExpectedTwilioSignature(token, url, params)
    expect(twilio.validateRequest(token, signature, url, params)).toBe(true)
    const send = (headers: Record<string, string>) =>
      request(app)
        .post('/hook?src=sms')
        .set(headers)
        .set('X-Twilio-Signature', signature)
        .type('form')
        .send(body)
    expect(
      (await send({ 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'hooks.example.com' }))
        .status,
    ).toBe(200)
    // Without the proxy's headers the URL is http://<Host>/…, not what Twilio signed.
    expect((await send({ Host: 'hooks.example.com' })).status).toBe(401)
    // Twilio's validator also accepts the URL with the scheme's default port.
    expect(
      (await send({ 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'hooks.example.com:443' }))
        .status,
    ).toBe(200)
  })

  it('twilio: X-Forwarded-* are ignored when the app does not trust the proxy', async () => {
    const token = 'tok'
    const app = webhookApp(express, { provider: 'twilio', secret: token })
    const url = 'https://hooks.example.com/hook'
    const signature = twilio.getExpectedTwilioSignature(token, url, { A: '1' })
    const res = await request(app)
      .post('/hook')
      .set({
        'X-Forwarded-Proto': 'https',
        'X-Forwarded-Host': 'hooks.example.com',
        'X-Twilio-Signature': signature,
      })
      .type('form')
      .send('A=1')
    expect(res.status).toBe(401)
    const plain = twilio.getExpectedTwilioSignature(token, 'http://direct.example.com/hook', {
      A: '1',
    })
    expect(
      (
        await request(app)
          .post('/hook')
          .set({ Host: 'direct.example.com', 'X-Twilio-Signature': plain })
          .type('form')
          .send('A=1')
      ).status,
    ).toBe(200)
  })

  it('twilio: JSON bodies by bodySHA256, as validateRequestWithBody checks them', async () => {
    const token = 'json_token'
    const app = webhookApp(
      express,
      { provider: 'twilio', secret: token, publicUrl: 'https://api.example.com' },
      'json-verify',
    )
    const body = '{"event":"message.delivered","sid":"SM1"}'
    const path = `/hook?bodySHA256=${twilio.getExpectedBodyHash(body)}`
    const url = `https://api.example.com${path}`
    const signature = twilio.getExpectedTwilioSignature(token, url, {})
    expect(twilio.validateRequestWithBody(token, signature, url, body)).toBe(true)
    const ok = await request(app)
      .post(path)
      .set('X-Twilio-Signature', signature)
      .type('json')
      .send(body)
    expect([ok.status, ok.body.body]).toEqual([200, { event: 'message.delivered', sid: 'SM1' }])
    const swapped = await request(app)
      .post(path)
      .set('X-Twilio-Signature', signature)
      .type('json')
      .send('{"event":"message.failed","sid":"SM1"}')
    expect([swapped.status, swapped.body.error.code]).toEqual([401, 'WEBHOOK_SIGNATURE_INVALID'])
    // A JSON body with no bodySHA256 in the URL is covered by no signature.
    const unsigned = twilio.getExpectedTwilioSignature(token, 'https://api.example.com/hook', {})
    expect(
      (await request(app).post('/hook').set('X-Twilio-Signature', unsigned).type('json').send(body))
        .status,
    ).toBe(401)
  })

  it('accepts the URL in the other spellings twilio-node accepts, as validateRequest does', async () => {
    const token = 'spelling_token'
    const signedUrl = 'https://a.example/hook?name=O%27Brien&x=a%20b'
    const signature = twilio.getExpectedTwilioSignature(token, signedUrl, { A: '1' })
    for (const [seen, valid] of [
      ["https://a.example/hook?name=O'Brien&x=a%20b", true],
      ['https://a.example:443/hook?name=O%27Brien&x=a%20b', true],
      ["https://a.example/hook?x=a%20b&name=O'Brien", false],
    ] as const) {
      expect(twilio.validateRequest(token, signature, seen, { A: '1' }), seen).toBe(valid)
      const app = webhookApp(express, { provider: 'twilio', secret: token, publicUrl: () => seen })
      const res = await request(app)
        .post('/hook')
        .set('X-Twilio-Signature', signature)
        .type('form')
        .send('A=1')
      expect(res.status, seen).toBe(valid ? 200 : 401)
    }
  })
})
