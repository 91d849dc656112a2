import { createHmac } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { connect } from 'node:net'
import express from 'express'
import { describe, expect, it } from 'vitest'
import { hasBodyOnWire } from '../../../src/runtime/core/has-body.js'
import { checkContentType } from '../../../src/runtime/guards/content-type.js'
import { bodyInput } from '../../../src/runtime/pipeline/request-input.js'
import { findRawBody } from '../../../src/runtime/webhooks/raw-body.js'
import { verifyWebhook } from '../../../src/runtime/webhooks/verify-webhook.js'

// Content-Length is one or more digits (RFC 9110): every run of zeros is a length of zero. Node's
// parser lets only digits through (it answers `+0`, `0x0`, `1e0` or an empty value with a 400), so
// the other spellings below are what a request double can hold.
const none = ['0', '00', '000', '']
const some = ['1', '00001', '12']
const refusedByNode = ['+0', '0x0', ' 0', '0.0', '1e0', 'abc']

const unread = { readableEnded: false }
const req = (headers: Record<string, string>, extra: object = {}) =>
  ({ method: 'POST', headers, body: {}, ...extra }) as never

describe('hasBodyOnWire', () => {
  it('reads a run of zeros as no body, any other digit, or chunked, as one', () => {
    for (const length of none) expect(hasBodyOnWire(req({ 'content-length': length }))).toBe(false)
    for (const length of some) expect(hasBodyOnWire(req({ 'content-length': length }))).toBe(true)
    expect(hasBodyOnWire(req({ 'transfer-encoding': 'chunked' }))).toBe(true)
    expect(hasBodyOnWire(req({}))).toBe(false)
  })

  it("counts a length Node's parser would refuse as a body", () => {
    for (const length of refusedByNode) {
      expect(hasBodyOnWire(req({ 'content-length': length })), length).toBe(true)
    }
  })
})

describe('the callers of hasBodyOnWire agree', () => {
  const outcomes = (headers: Record<string, string>) => {
    let guard = 'ok'
    try {
      checkContentType(req(headers, unread))
    } catch {
      guard = '415'
    }
    return {
      body: bodyInput(req(headers)) === undefined ? 'none' : 'some',
      guard,
      raw: Buffer.isBuffer(findRawBody(req(headers, unread))) ? 'none' : 'unread',
    }
  }

  it('on every spelling of a length', () => {
    for (const length of none) {
      expect(outcomes({ 'content-length': length }), length).toEqual({
        body: 'none',
        guard: 'ok',
        raw: 'none',
      })
    }
    for (const length of [...some, ...refusedByNode]) {
      expect(outcomes({ 'content-length': length }), length).toEqual({
        body: 'some',
        guard: '415',
        raw: 'unread',
      })
    }
    expect(outcomes({ 'transfer-encoding': 'chunked' })).toEqual({
      body: 'some',
      guard: '415',
      raw: 'unread',
    })
  })

  it('over the wire: a webhook sent with Content-Length: 00 is checked against no bytes', async () => {
    const secret = 'shh'
    const app = express()
    app.post('/hook', verifyWebhook({ provider: 'github', secret }), (_req, res) => {
      res.status(204).end()
    })
    app.use((err: { statusCode?: number }, _req: unknown, res: express.Response, _next: unknown) =>
      res.status(err.statusCode ?? 500).end(),
    )
    const server = app.listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    const signature = `sha256=${createHmac('sha256', secret).update('').digest('hex')}`
    const status = (length: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect((server.address() as AddressInfo).port, '127.0.0.1', () => {
          socket.write(
            `POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: ${length}\r\nX-Hub-Signature-256: ${signature}\r\nConnection: close\r\n\r\n`,
          )
        })
        let text = ''
        socket.on('data', (chunk: Buffer) => {
          text += chunk.toString('latin1')
        })
        socket.on('end', () => resolve(text.split('\r\n')[0]!))
        socket.on('error', reject)
      })
    try {
      for (const length of ['0', '00', '000']) {
        expect(await status(length), length).toBe('HTTP/1.1 204 No Content')
      }
    } finally {
      server.close()
    }
  })
})
