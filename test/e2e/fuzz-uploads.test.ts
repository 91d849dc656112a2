import { execFileSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configureLogger } from '../../src/index.js'
import { resetLogger } from '../../src/runtime/logging/logger.js'
import { hostileFilenames } from '../../src/testing/fuzz/upload-cases.js'
import { type FuzzError, fuzzRoutes } from '../../src/testing/index.js'
import { captureLogger, hosts } from '../support/e2e.js'
import { uploadApp } from './fixtures/upload-app.js'

// fuzzRoutes on routes of files (in memory and on disk) and cookies (plain and signed): valid,
// oversized, wrong-type, too-many and hostile-name uploads, forged signatures and hostile Cookie
// headers, each answered as it must be; and the planted bugs found with a curl line that replays.

// Kept small for `npm test`; FUZZ_RUNS raises it.
const runs = Math.min(Number(process.env.FUZZ_RUNS ?? 40), 2000)

beforeAll(() => configureLogger({ silent: true }))
afterAll(() => configureLogger({ silent: true }))

const routes = ['POST /avatars', 'POST /imports', 'GET /prefs', 'GET /me']

/** The shell commands before `| curl …` write the body: their output, byte for byte. */
function replayedBody(curl: string): Buffer {
  const writer = curl.slice(0, curl.lastIndexOf(' | curl '))
  return execFileSync('sh', ['-c', writer])
}

describe.each(hosts)('fuzzRoutes with files and cookies on %s', (_, express) => {
  it('finds no broken invariant on correct routes, in the envelope and in problem details', async () => {
    const report = await fuzzRoutes(uploadApp(express), { runs, seed: 11 })
    // Every phase passes: the random one's `runs` requests after the boundaries'.
    expect(report.routes.map((r) => [r.route, r.phases.random, r.notes])).toEqual(
      routes.map((route) => [route, runs, []]),
    )
    expect(report.failures).toEqual([])
    const problems = uploadApp(express, {}, { errors: { format: 'problem+json' } })
    expect((await fuzzRoutes(problems, { runs: 25, seed: 12 })).failures).toEqual([])
  }, 60_000)

  it('finds a handler that crashes on a filename with a space, with a curl line that sends the same bytes', async () => {
    const app = uploadApp(express, { spaceInName: true })
    const error = (await fuzzRoutes(app, {
      runs,
      seed: 5,
      routes: ['POST /avatars'],
      phases: ['random'],
    }).catch((e: unknown) => e)) as FuzzError
    expect(error.message).toContain('POST /avatars: answered 500: a request must never get a 5xx')
    const [failure] = error.report.failures
    const body = failure!.request.body as Buffer
    expect(Buffer.isBuffer(body)).toBe(true)
    // Shrunk: one field, one file of the smallest size, a name with a space.
    expect(body.toString('latin1')).toMatch(/filename="[^"]* [^"]*\.(png|jpeg)"/)
    expect(failure!.curl).toMatch(
      /^printf '.*' \| curl --globoff -X POST 'http:\/\/localhost:3000\/avatars' -H 'content-type: multipart\/form-data; boundary=shapeguard-fuzz-7c1e5a' --data-binary @-$/,
    )
    expect(replayedBody(failure!.curl).equals(body)).toBe(true)
  }, 60_000)

  it('finds a handler that echoes the Cookie header, naming no value of it', async () => {
    const app = uploadApp(express, { echoCookie: true })
    const error = (await fuzzRoutes(app, { runs, seed: 5, routes: ['GET /prefs'] }).catch(
      (e: unknown) => e,
    )) as FuzzError
    const [failure] = error.report.failures
    expect(failure!.invariant).toBe(
      'answered 200 holding what a hostile request (cookie-proto) sent (a raw filename or cookie): an answer must never echo it',
    )
    expect(failure!.curl).toMatch(
      /^curl --globoff -X GET 'http:\/\/localhost:3000\/prefs' -H 'cookie: theme=(dark|light); __proto__=sgFuzzCookieEcho; constructor=sgFuzzCookieEcho'$/,
    )
  }, 60_000)

  it('logs no raw hostile filename', async () => {
    resetLogger()
    const capture = captureLogger()
    try {
      configureLogger({ level: 'debug' })
      const app = uploadApp(express, {}, { logger: { instance: capture } })
      await fuzzRoutes(app, { runs: 60, seed: 3, routes: ['POST /avatars'], logs: true })
      const logged = JSON.stringify(capture.records)
      expect(capture.records.length).toBeGreaterThan(60)
      for (const raw of Object.values(hostileFilenames)) {
        expect(logged).not.toContain(raw)
        expect(logged).not.toContain(JSON.stringify(raw).slice(1, -1))
      }
    } finally {
      resetLogger()
      configureLogger({ silent: true })
    }
  }, 60_000)
})
