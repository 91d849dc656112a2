import { createHmac } from 'node:crypto'
import { configureLogger } from 'shapeguard'
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../examples/demo/app.js'

beforeAll(() => {
  configureLogger({ silent: true })
})

describe('the demo webhook route', () => {
  const body = '{"action":"opened","number":1}'
  const sign = (secret: string) =>
    `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`

  it('accepts a delivery signed with the demo secret, and refuses another secret', async () => {
    const app = createApp()
    const send = (signature: string) =>
      request(app)
        .post('/webhooks/github')
        .set({ 'X-Hub-Signature-256': signature, 'X-GitHub-Event': 'pull_request' })
        .type('json')
        .send(body)
    const ok = await send(sign('demo-secret'))
    expect([ok.status, ok.body.data]).toEqual([200, { event: 'pull_request', bytes: body.length }])
    const forged = await send(sign('guess'))
    expect([forged.status, forged.body.error.code]).toEqual([401, 'WEBHOOK_SIGNATURE_INVALID'])
  })
})
