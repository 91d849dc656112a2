import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { errorHandler, handle, notFoundHandler } from '../../src/index.js'
import { requestLogger } from '../../src/runtime/logging/request-logger.js'
import { captureLogger, type Express, hosts } from '../support/e2e.js'
import { BACKEND_MODES, type BACKENDS, capture, settle } from '../support/log-capture.js'
import { NO_SDK_MODES, useNoSdk, useOtelApi } from '../support/otel-without-sdk.js'

// Without an OpenTelemetry SDK, a request's valid W3C traceparent header joins its log lines to
// the caller's trace: trace_id and the parent's span_id. An invalid one is ignored, never logged.

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const PARENT = '00f067aa0ba902b7'
const VALID = `00-${TRACE}-${PARENT}-01`
const MARK = 'mktp4c1e'

// Each is ignored: the W3C rules refuse it. Header values Node accepts (no control characters).
const INVALID: Record<string, string> = {
  'upper-case hex': `00-${TRACE.toUpperCase()}-${PARENT}-01`,
  'an all-zero trace ID': `00-${'0'.repeat(32)}-${PARENT}-01`,
  'an all-zero parent ID': `00-${TRACE}-${'0'.repeat(16)}-01`,
  'version ff': `ff-${TRACE}-${PARENT}-01`,
  'a version-00 header with more after it': `${VALID}-${MARK}`,
  'a long header': `${VALID}${MARK.repeat(2000)}`,
  'a value of its own': `00-${MARK}${'a'.repeat(24)}-${PARENT}-01`,
  'non-ASCII': `00-${TRACE.slice(0, 31)}\u00e9-${PARENT}-01`,
}

function app(express: Express, backend: (typeof BACKENDS)[number], pretty: boolean) {
  const out = capture()
  const explicit = captureLogger()
  const server = express()
  server.use(express.json())
  server.use(requestLogger({ pretty }, true, { stream: out, backend }))
  server.post(
    '/users/:id',
    ...handle(
      { body: z.object({ name: z.string() }), warnings: { missingResponseSchema: false } },
      (req, res) => res.created({ data: { id: req.params.id } }),
    ),
  )
  server.use(notFoundHandler(), errorHandler({ logger: explicit }))
  return { server, out, explicit }
}

const FIELDS = { trace_id: TRACE, span_id: PARENT, trace_flags: '01' }
const PRETTY_FIELDS = ` trace_id=${TRACE} span_id=${PARENT} trace_flags=01`

/** The trace fields of each log line that heads a request's lines. */
function fieldsOf(lines: readonly string[], pretty: boolean): unknown[] {
  const heads = lines.filter((line) => !line.startsWith(' '))
  if (pretty) return heads.map((line) => line.includes(PRETTY_FIELDS))
  return heads.map((line) => {
    const { trace_id, span_id, trace_flags } = JSON.parse(line)
    return { trace_id, span_id, trace_flags }
  })
}

/** A POST whose traceparent header is sent as written: whitespace around it, or twice. */
async function rawPost(
  server: ReturnType<Express>,
  traceparent: string | string[],
): Promise<number> {
  const listening = server.listen(0, '127.0.0.1')
  await new Promise((resolve) => listening.once('listening', resolve))
  const { port } = listening.address() as AddressInfo
  try {
    return await new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/users/1', method: 'POST' })
      req.setHeader('content-type', 'application/json')
      req.setHeader('traceparent', traceparent)
      req.on('response', (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      })
      req.on('error', reject)
      req.end('{"name":"x"}')
    })
  } finally {
    listening.close()
  }
}

useNoSdk()

describe.each(NO_SDK_MODES)('%s', (_, api) => {
  useOtelApi(api)

  describe.each(hosts)('on %s', (_, express) => {
    describe.each(BACKEND_MODES)('logging through %s (pretty: %s)', (backend, pretty) => {
      it("takes a valid traceparent's trace ID and parent span ID, on every line", async () => {
        const { server, out, explicit } = app(express, backend, pretty)
        await request(server).post('/users/1').set('traceparent', VALID).send({ name: 'x' })
        await request(server).post('/users/2').set('traceparent', VALID).send({ name: 5 })
        await settle()
        const expected = pretty ? true : FIELDS
        expect(fieldsOf(out.lines(), pretty)).toEqual([expected, expected, expected, expected])
        expect(explicit.records.map((r) => r.meta)).toMatchObject([FIELDS])
      })

      it('accepts the whitespace HTTP allows around the value (Node trims it)', async () => {
        const { server, out } = app(express, backend, pretty)
        expect(await rawPost(server, ` \t${VALID}\t `)).toBe(201)
        await settle()
        const expected = pretty ? true : FIELDS
        expect(fieldsOf(out.lines(), pretty)).toEqual([expected, expected])
      })

      it.each(Object.entries(INVALID))('ignores %s and logs nothing of it', async (_, header) => {
        const { server, out, explicit } = app(express, backend, pretty)
        await request(server).post('/users/1').set('traceparent', header).send({ name: 5 })
        await settle()
        const none = pretty ? false : {}
        expect(fieldsOf(out.lines(), pretty)).toEqual([none, none])
        expect(explicit.records).toHaveLength(1)
        expect(explicit.records[0]?.meta).not.toHaveProperty('trace_id')
        const logged = [...out.lines(), JSON.stringify(explicit.records)].join('\n')
        expect(logged).not.toContain(MARK)
        expect(logged).not.toContain(header.slice(3, 35))
      })

      it('ignores a repeated header (its copies joined)', async () => {
        const { server, out } = app(express, backend, pretty)
        expect(await rawPost(server, [VALID, VALID])).toBe(201)
        await settle()
        const none = pretty ? false : {}
        expect(fieldsOf(out.lines(), pretty)).toEqual([none, none])
      })
    })
  })
})
