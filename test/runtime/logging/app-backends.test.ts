import express from 'express'
import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import { logger, resetLogger } from '../../../src/runtime/logging/logger.js'
import type { LoggerOptions } from '../../../src/runtime/logging/options.js'
import { requestLogger } from '../../../src/runtime/logging/request-logger.js'
import { BACKENDS, CLOCK, capture, settle } from '../../support/log-capture.js'

// Each request logger (one per shapeguard()) keeps the backend and options it was mounted with;
// a line `logger` writes inside one of its requests goes there, with the request's ID.

const ID = 'req_0190a1b2c3d4e5f6a7b8c9d0'

function app(backend: (typeof BACKENDS)[number], options: LoggerOptions) {
  const out = capture()
  const server = express()
  server.use((req, _res, next) => {
    ;(req as { id?: string }).id = ID
    next()
  })
  server.use(requestLogger({ logIncoming: false, ...options }, true, { stream: out, backend }))
  server.get('/', (_req, res) => {
    logger.debug('handler debug')
    logger.warn({ orderId: 7 }, 'handler warn')
    res.json({})
  })
  return { server, out }
}

afterEach(() => resetLogger())

describe.each(BACKENDS)('through %s', (backend) => {
  it("keeps each app's level, format and logRequestId, whichever was mounted last", async () => {
    const json = app(backend, { level: 'debug', pretty: false })
    const pretty = app(backend, { level: 'warn', pretty: true, logRequestId: false })
    await request(json.server).get('/').expect(200)
    await request(pretty.server).get('/').expect(200)
    await settle()
    expect(json.out.records().filter((r) => String(r.message).startsWith('handler'))).toEqual([
      { level: 'debug', time: expect.any(String), requestId: ID, message: 'handler debug' },
      {
        level: 'warn',
        time: expect.any(String),
        requestId: ID,
        orderId: 7,
        message: 'handler warn',
      },
    ])
    expect(pretty.out.lines().filter((l) => l.includes('handler'))).toEqual([
      expect.stringMatching(new RegExp(`^${CLOCK} \\[WARN\\] handler warn \\{"orderId":7\\}$`)),
    ])
  })
})

it("writes a pretty handler line with the request's ID in its fields", async () => {
  const { server, out } = app('console', { pretty: true })
  await request(server).get('/').expect(200)
  expect(out.lines().filter((l) => l.includes('handler warn'))).toEqual([
    expect.stringMatching(
      new RegExp(`^${CLOCK} \\[WARN\\] handler warn \\{"requestId":"${ID}","orderId":7\\}$`),
    ),
  ])
})
