import express from 'express'
import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import { AppError } from '../../../src/runtime/core/app-error.js'
import { errorHandler } from '../../../src/runtime/errors/error-handler.js'
import { installSink, logger, resetLogger } from '../../../src/runtime/logging/logger.js'
import { resolveLoggerOptions } from '../../../src/runtime/logging/options.js'
import { printable } from '../../../src/runtime/logging/printable.js'
import { resolveBackend } from '../../../src/runtime/logging/resolve-backend.js'
import { BACKENDS, capture, settle } from '../../support/log-capture.js'
import { FakeAppError, handOver, makeApp } from '../../support/logging-app.js'

afterEach(() => resetLogger())

// Everything a terminal, a log shipper or a JSON-lines splitter may take for a line break or a
// command: CR, LF, ESC, other C0 controls, DEL, C1 controls (NEL, CSI), U+2028, U+2029.
const HOSTILE = 'a\nb\r\x1b[31mc\x07d\x7fe\u0085f\u009bg\u2028h\u2029i\x0bj\x1ck'
// A message that, printed raw, would forge a request line of its own.
const FORGED = 'db\r\n  12:34:56.789 [INFO] << 200 GET /admin 1ms FORGED\u2028\x1b[31m\nFORGED too'
const ESCAPED = String.raw`db\u000d\u000a  12:34:56.789 [INFO] << 200 GET /admin 1ms FORGED\u2028\u001b[31m\u000aFORGED too`
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding line breaks is the point
const LINE_BREAKS = /\r\n|\r|\n|\u000b|\u000c|\u001c|\u001d|\u001e|\u0085|\u2028|\u2029/

function mount(backend: (typeof BACKENDS)[number], pretty: boolean) {
  const out = capture()
  const options = resolveLoggerOptions({ pretty, level: 'debug' }, true)
  installSink(resolveBackend(options, { stream: out, backend }), options)
  return out
}

function expectOneCleanLinePerCall(text: string, calls: number) {
  const lines = text.split('\n')
  expect(lines.pop()).toBe('')
  expect(lines).toHaveLength(calls)
  for (const line of lines) {
    expect(line.split(LINE_BREAKS)).toHaveLength(1)
    expect(line).not.toMatch(RAW_CONTROL)
  }
}

describe.each(BACKENDS)('one log call is one line through %s', (backend) => {
  it('pretty: messages and metadata are escaped', async () => {
    const out = mount(backend, true)
    logger.info(HOSTILE)
    logger.warn({ note: HOSTILE, [HOSTILE]: 1 }, HOSTILE)
    logger.error({ nested: { list: [HOSTILE] } })
    await settle()
    const text = out.chunks.join('')
    expectOneCleanLinePerCall(text, 3)
    expect(text).toContain(String.raw`a\u000ab\u000d\u001b[31mc`)
  })

  it('JSON: records escape U+2028, U+2029, DEL and C1 controls and read back the same', async () => {
    const out = mount(backend, false)
    logger.info(HOSTILE)
    logger.warn({ note: HOSTILE, [HOSTILE]: 1 }, HOSTILE)
    await settle()
    const text = out.chunks.join('')
    expectOneCleanLinePerCall(text, 2)
    const records = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(records[0]?.message).toBe(HOSTILE)
    expect(records[1]).toMatchObject({ note: HOSTILE, [HOSTILE]: 1, message: HOSTILE })
  })

  it('pretty: an AppError message logged by errorHandler() is escaped', async () => {
    const out = mount(backend, true)
    const app = express()
    app.get('/', () => {
      throw AppError.unauthorized(HOSTILE)
    })
    app.use(errorHandler())
    await request(app).get('/')
    await settle()
    expectOneCleanLinePerCall(out.chunks.join(''), 1)
  })

  it("pretty: a 5xx error's message is escaped in its stack and its cause's too", async () => {
    const out = capture()
    const app = makeApp({ pretty: true, logIncoming: false }, { stream: out, backend })
    app.get('/app-error', () => {
      throw new FakeAppError('DOWN', FORGED, 503)
    })
    app.get('/thrown', () => {
      throw new Error(FORGED, { cause: new Error(FORGED) })
    })
    app.get('/string-cause', () => {
      throw new Error('boom', { cause: FORGED })
    })
    app.use(handOver)
    for (const path of ['/app-error', '/thrown', '/string-cause']) await request(app).get(path)
    await settle()
    const lines = out.lines()
    expect(lines.join('\n')).not.toMatch(RAW_CONTROL)
    // A record's first line starts with the time, each of its continuation lines with two spaces.
    expect(lines.filter((l) => !l.startsWith('  '))).toEqual([
      expect.stringMatching(/\[ERROR\] << 503 GET \/app-error /),
      expect.stringMatching(/\[ERROR\] << 500 GET \/thrown /),
      expect.stringMatching(/\[ERROR\] << 500 GET \/string-cause /),
    ])
    // The forged part never starts a line: it stays on the line of the message before it.
    const forged = lines.filter((l) => l.includes('FORGED'))
    expect(forged).toEqual([
      `  DOWN: ${ESCAPED}`,
      `  Error: ${ESCAPED}`,
      `  Error: ${ESCAPED}`,
      `  cause: Error: ${ESCAPED}`,
      `  cause: ${ESCAPED}`,
    ])
    // Frames stay one per line under their error.
    expect(lines.filter((l) => l.startsWith('      at ')).length).toBeGreaterThan(3)
  })

  it('pretty: a message holding a frame stays on its line; only real frames get lines', async () => {
    const messages = [
      'boom\n    at FORGED 12:34:56.789 [INFO] << 200 GET /admin 1ms',
      'boom\r\n    at FORGED 12:34:56.789 [INFO] << 200 GET /admin 1ms',
      'boom\u2028    at FORGED 12:34:56.789 [INFO] << 200 GET /admin 1ms',
      '    at FORGED',
      '\n    at FORGED',
      'boom\n    at FORGED\n',
    ]
    const out = capture()
    const app = makeApp({ pretty: true, logIncoming: false }, { stream: out, backend })
    messages.forEach((message, i) => {
      app.get(`/m${i}`, () => {
        throw new Error(message, { cause: new Error(message) })
      })
    })
    app.use(handOver)
    for (const [i] of messages.entries()) await request(app).get(`/m${i}`)
    await settle()
    const lines = out.lines()
    expect(lines.join('\n')).not.toMatch(RAW_CONTROL)
    expect(lines.filter((l) => l.includes('FORGED'))).toEqual(
      messages.flatMap((m) => [`  Error: ${printable(m)}`, `  cause: Error: ${printable(m)}`]),
    )
    // Every other continuation line of the stacks is a frame of this file.
    const frames = lines.filter((l) => l.startsWith('      at '))
    expect(frames.length).toBeGreaterThan(2 * messages.length)
    for (const frame of frames) expect(frame).not.toContain('FORGED')
  })

  it("pretty: Node's own errors keep their frames (`RangeError [ERR_…]: message`)", async () => {
    const out = capture()
    const app = makeApp({ pretty: true, logIncoming: false }, { stream: out, backend })
    app.get('/node', () => {
      // As Node writes it outside the test runner (whose stack formatting drops the code).
      const error = Object.assign(new RangeError('bad size'), { code: 'ERR_OUT_OF_RANGE' })
      error.stack = 'RangeError [ERR_OUT_OF_RANGE]: bad size\n    at Buffer.alloc (node:buffer:1:1)'
      throw error
    })
    app.use(handOver)
    await request(app).get('/node')
    await settle()
    expect(out.lines().slice(-2)).toEqual([
      '  RangeError [ERR_OUT_OF_RANGE]: bad size',
      '      at Buffer.alloc (node:buffer:1:1)',
    ])
  })

  it('pretty: a stack that does not start with its name and message is one line', async () => {
    const out = capture()
    const app = makeApp({ pretty: true, logIncoming: false }, { stream: out, backend })
    app.get('/rewritten', () => {
      const error = new Error('boom')
      error.stack = 'Error: other\n    at FORGED 12:34:56.789 [INFO] << 200 GET /admin 1ms'
      throw error
    })
    app.use(handOver)
    await request(app).get('/rewritten')
    await settle()
    expect(out.lines().filter((l) => l.includes('FORGED'))).toEqual([
      String.raw`  Error: other\u000a    at FORGED 12:34:56.789 [INFO] << 200 GET /admin 1ms`,
    ])
  })

  it('pretty: request lines escape the path, the client address and logged bodies', async () => {
    const out = capture()
    const app = makeApp(
      { pretty: true, logIncoming: true, logClientIp: true, logRequestBody: true },
      { stream: out, backend },
    )
    await request(app)
      .post('/users')
      .set('x-forwarded-for', 'evil\u009b31m')
      .send({ name: 'x\u2028y\u0085z' })
    await settle()
    const text = out.chunks.join('')
    expect(text).not.toMatch(RAW_CONTROL)
    // The header's UTF-8 bytes reach Express as latin1: the C1 byte is what must not get through.
    expect(text).toContain(String.raw`\u009b31m`)
    expect(text).toContain(String.raw`reqBody: {"name":"x\u2028y\u0085z"}`)
  })

  it('JSON: request records escape the client address and read back the same', async () => {
    const out = capture()
    const app = makeApp(
      { pretty: false, logIncoming: false, logClientIp: true },
      { stream: out, backend },
    )
    await request(app).get('/users/1').set('x-forwarded-for', 'evil\u009b31m')
    await request(app).get('/users/2').set('x-forwarded-for', '10.0.0.1')
    await settle()
    const text = out.chunks.join('')
    expectOneCleanLinePerCall(text, 2)
    expect(text).toContain(String.raw`"ip":"evil\u009b31m"`)
    expect(out.records().map((r) => r.ip)).toEqual(['evil\u009b31m', '10.0.0.1'])
  })
})
