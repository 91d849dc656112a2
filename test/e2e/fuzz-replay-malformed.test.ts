import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { configureLogger, errorHandler, handle, shapeguard } from '../../src/index.js'
import {
  type FuzzError,
  type FuzzFailure,
  type FuzzReport,
  fuzzRoutes,
  jsonReport,
  readJsonReport,
} from '../../src/testing/index.js'
import { hosts } from '../support/e2e.js'

// A JSON report edited by hand or cut short: readJsonReport refuses every malformed field of a
// saved failure with a misuse error naming its JSON path (never its value), and what it accepts
// replays without a crash (a query name that is not valid percent-encoding).

beforeAll(() => configureLogger({ silent: true }))
afterAll(() => configureLogger({ silent: true }))

const SECRET = 'value-never-shown-9f3'

const failure: FuzzFailure = {
  route: 'POST /items',
  phase: 'random',
  invariant: 'answered 500: a request must never get a 5xx',
  request: {
    kind: 'invalid',
    method: 'POST',
    url: '/items',
    headers: { 'content-type': 'application/json' },
    body: '{"name":1}',
    broken: { part: 'body', field: 'body.name', deep: false },
  },
  curl: 'curl -X POST http://localhost:3000/items',
  seed: 4,
}
const report: FuzzReport = { routes: [], requests: 1, failures: [failure], seed: 4, skipped: [] }

// The report's JSON with one field of its failure changed (undefined deletes it).
function edited(path: (string | number)[], value: unknown): string {
  const json = JSON.parse(jsonReport(report))
  let at = json.failures[0]
  for (const key of path.slice(0, -1)) at = at[key]
  const last = path.at(-1)!
  if (value === undefined) delete at[last]
  else at[last] = value
  return JSON.stringify(json)
}

function refusal(text: string): Error & { code?: string } {
  try {
    readJsonReport(text)
  } catch (error) {
    return error as Error & { code?: string }
  }
  throw new Error('readJsonReport accepted it')
}

describe('readJsonReport refuses a malformed failure', () => {
  it('reads back a well-formed one as it was', () => {
    // The curl line is written again, credentials masked.
    const back = { ...failure, curl: expect.stringMatching(/^curl /) }
    expect(readJsonReport(jsonReport(report))).toEqual({ seed: 4, failures: [back] })
  })

  const cases: [string, (string | number)[], unknown, string][] = [
    [
      'a header value',
      ['request', 'headers', 'x-key'],
      { v: SECRET },
      'failures[0].request.headers["x-key"] is not a string',
    ],
    [
      'a header name',
      ['request', 'headers', `bad name ${SECRET}`],
      'x',
      'failures[0].request.headers has a key that is not a header name',
    ],
    ['echo', ['request', 'echo'], SECRET, 'failures[0].request.echo is not an array'],
    ['an echo item', ['request', 'echo'], ['a', 7], 'failures[0].request.echo[1] is not a string'],
    [
      'expect',
      ['request', 'expect'],
      [400, SECRET],
      'failures[0].request.expect[1] is not a whole number to 599',
    ],
    [
      'the kind',
      ['request', 'kind'],
      SECRET,
      'failures[0].request.kind is not one of valid, invalid, hostile',
    ],
    [
      'an invalid request without broken',
      ['request', 'broken'],
      undefined,
      'failures[0].request.broken is missing: an invalid request names the field it breaks',
    ],
    [
      "broken's part",
      ['request', 'broken', 'part'],
      SECRET,
      'failures[0].request.broken.part is not one of params, query, headers, body, cookies, signedCookies, files',
    ],
    [
      "broken's deep",
      ['request', 'broken', 'deep'],
      'no',
      'failures[0].request.broken.deep is not true or false',
    ],
    [
      'the method',
      ['request', 'method'],
      `GET ${SECRET}`,
      'failures[0].request.method is not an HTTP method',
    ],
    [
      'the url',
      ['request', 'url'],
      `http://${SECRET}/`,
      'failures[0].request.url is not a path (starting with /)',
    ],
    [
      'the body',
      ['request', 'body'],
      { secret: SECRET },
      'failures[0].request.body is not a string',
    ],
    [
      'the body encoding',
      ['request', 'bodyEncoding'],
      SECRET,
      'failures[0].request.bodyEncoding is not one of base64',
    ],
    [
      'the request',
      ['request'],
      SECRET,
      'failures[0].request is not a request (method, url, headers)',
    ],
    [
      'a sequence step',
      ['sequence'],
      [SECRET],
      'failures[0].sequence[0] is not a request (method, url, headers)',
    ],
    [
      'the phase',
      ['phase'],
      SECRET,
      'failures[0].phase is not one of examples, boundaries, random, stateful',
    ],
    ['the seed', ['seed'], SECRET, 'failures[0].seed is not an integer'],
    ['the curl line', ['curl'], 3, 'failures[0].curl is not a string'],
    [
      'a stateful failure without its commands',
      ['phase'],
      'stateful',
      'failures[0].stateful is missing: a stateful failure needs its commands to replay',
    ],
  ]
  it.each(cases)('%s', (_, path, value, words) => {
    const error = refusal(edited(path, value))
    expect(error.code).toBe('SG_ERR_INVALID_OPTION')
    expect(error.message).toContain('shapeguard: readJsonReport(): ')
    expect(error.message).toContain(words)
    expect(error.message).not.toContain(SECRET)
  })

  it("checks a stateful failure's commands", () => {
    const steps = (value: unknown) => {
      const json = JSON.parse(jsonReport(report))
      Object.assign(json.failures[0], { phase: 'stateful', stateful: value })
      return refusal(JSON.stringify(json)).message
    }
    const step = { command: 'create', route: 'POST /items', request: failure.request }
    expect(steps({ resource: '/items', steps: [] })).toContain(
      'failures[0].stateful.steps is not a list of at least one command',
    )
    expect(steps({ resource: '/items', steps: [{ ...step, command: SECRET }] })).toContain(
      'failures[0].stateful.steps[0].command is not one of create, live, gone, prior',
    )
    expect(steps({ resource: '/items', steps: [{ ...step, pick: -1 }] })).toContain(
      'failures[0].stateful.steps[0].pick is not a whole number',
    )
    expect(steps({ resource: '/items', steps: [{ ...step, list: { url: '/' } }] })).toContain(
      'failures[0].stateful.steps[0].list.kind is not one of valid, invalid, hostile',
    )
    expect(steps({ resource: 3, steps: [step] })).toContain(
      'failures[0].stateful.resource is not a string',
    )
  })
})

describe.each(hosts)('replaying what readJsonReport accepts on %s', (_, express) => {
  it('sends a query name that is not valid percent-encoding as it was saved', async () => {
    const app = express()
    app.use(shapeguard())
    app.get(
      '/items',
      ...handle({ query: z.object({ q: z.string().optional() }) }, (_req, res) => {
        res.ok({ data: null })
      }),
    )
    app.use(errorHandler())
    const saved: FuzzFailure = {
      ...failure,
      route: 'GET /items',
      request: {
        kind: 'valid',
        method: 'GET',
        url: '/items?%E0=1&q=***',
        headers: {},
        body: undefined,
      },
    }
    const { failures } = readJsonReport(jsonReport({ ...report, failures: [saved] }))
    const replayed = await fuzzRoutes(app, { replay: failures, record: true }).catch(
      (e: FuzzError) => e.report,
    )
    expect(replayed.exchanges!.map((e) => e.request.url)).toEqual(['/items?%E0=1&q=***'])
  }, 30_000)
})
