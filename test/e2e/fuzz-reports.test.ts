import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import {
  AppError,
  configureLogger,
  errorHandler,
  handle,
  notFoundHandler,
  type ShapeguardConfig,
  shapeguard,
} from '../../src/index.js'
import {
  type FuzzError,
  type FuzzReport,
  fuzzRoutes,
  harReport,
  jsonReport,
  junitReport,
  readJsonReport,
} from '../../src/testing/index.js'
import { type Express, hosts } from '../support/e2e.js'

// The report files of a run with a planted crash: JUnit XML well formed and shaped as CI tools
// read it, HAR 1.2 with its required fields, JSON that the replay reads back; no credential in
// any of them, even where the app echoes it (its answers' bodies, headers and redirect URLs, a
// failure's message); the replay fails while the crash is there and passes once it is fixed.

beforeAll(() => configureLogger({ silent: true }))
afterAll(() => configureLogger({ silent: true }))

const TOKEN = 'tok-456-secret'
const KEY = 'sekret-key-123'

function app(express: Express, state: { fixed: boolean }) {
  const app = express()
  app.use(shapeguard())
  app.use(express.json())
  app.use((req, res, next) =>
    req.get('authorization') === `Bearer ${TOKEN}` && req.get('x-api-key') === KEY
      ? next()
      : res.status(401).json({ success: false, error: { code: 'UNAUTHORIZED', message: 'no' } }),
  )
  app.post(
    '/items',
    ...handle(
      { body: z.object({ name: z.string().max(30) }), response: z.object({ name: z.string() }) },
      (req, res) => {
        if (!state.fixed && req.body.name.length > 3) throw new Error('crash on a long name')
        res.created({ data: { name: req.body.name } })
      },
    ),
  )
  app.use(notFoundHandler(), errorHandler())
  return app
}

const credentials = { auth: `Bearer ${TOKEN}`, headers: { 'x-api-key': KEY } }

/** A well-formedness check of XML: one root, every tag closed in order, attributes quoted, entities known. */
function wellFormed(xml: string): {
  tag: string
  attrs: Record<string, string>
  children: unknown[]
} {
  const body = xml.replace(/^<\?xml [^?]*\?>\s*/, '')
  const token = /<\/?([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>|([^<]+)/gy
  type Node = { tag: string; attrs: Record<string, string>; children: Node[] }
  const root: Node = { tag: '', attrs: {}, children: [] }
  const stack: Node[] = [root]
  let at = 0
  while (at < body.length) {
    token.lastIndex = at
    const m = token.exec(body)
    if (m === null) throw new Error(`not XML at ${at}: ${body.slice(at, at + 40)}`)
    at = token.lastIndex
    const [whole, tag, attrText, self, text] = m
    if (text !== undefined) {
      if (/&(?!(amp|lt|gt|quot|apos|#\d+);)/.test(text)) throw new Error('a bare &')
      continue
    }
    const attrs = Object.fromEntries(
      [...(attrText ?? '').matchAll(/([\w.-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]]),
    ) as Record<string, string>
    if (whole!.startsWith('</')) {
      if (stack.pop()?.tag !== tag) throw new Error(`</${tag}> closes nothing open`)
      continue
    }
    const node: Node = { tag: tag!, attrs, children: [] }
    stack.at(-1)!.children.push(node)
    if (self !== '/') stack.push(node)
  }
  if (stack.length !== 1 || root.children.length !== 1) throw new Error('not one closed root')
  return root.children[0] as never
}

// Credentials whose URL, JSON and XML forms differ from the raw ones.
const ECHO_TOKEN = 'tok/3n+s3cret=77'
const ECHO_KEY = 'key&s3cret=9/x<q>'
const BASIC = { user: 'ada', password: 'pa55:w0rd/x' }
const basicPair = `${BASIC.user}:${BASIC.password}`

/** Every form a credential could take in a report file: raw, percent-encoded, JSON- and XML-escaped, base64. */
const formsOf = (secret: string) => {
  const encoded = encodeURIComponent(secret)
  return [
    secret,
    encoded,
    encoded.toLowerCase(),
    encoded.replace(/%20/g, '+'),
    JSON.stringify(secret).slice(1, -1),
    JSON.stringify(JSON.stringify(secret).slice(1, -1)).slice(1, -1),
    secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
    Buffer.from(secret).toString('base64'),
  ]
}
const secretForms = [ECHO_TOKEN, ECHO_KEY, basicPair, BASIC.password].flatMap(formsOf)

const echoAuth = {
  bearer: (token: string) => (token === ECHO_TOKEN ? { id: 1 } : undefined),
  basic: (user: string, password: string) =>
    user === BASIC.user && password === BASIC.password ? { user } : undefined,
  key: {
    in: 'header',
    name: 'X-API-Key',
    verify: (k: string) => (k === ECHO_KEY ? {} : undefined),
  },
  query: { in: 'query', name: 'api_key', verify: (k: string) => (k === ECHO_KEY ? {} : undefined) },
} satisfies ShapeguardConfig['auth']

// An app that echoes every credential it is sent: in a JSON field (a 201's data, a 422's issue
// message, which becomes the failure's invariant), in headers, and in a redirect's query string.
function echoApp(express: Express) {
  const app = express()
  app.use(shapeguard({ auth: echoAuth }))
  app.use(express.json())
  const echo = (req: any, res: any) => {
    const authorization = String(req.headers.authorization ?? '')
    const token = authorization.replace(/^\S+ /, '')
    const key = String(req.headers['x-api-key'] ?? req.query.api_key ?? '')
    const basic = authorization.startsWith('Basic ')
    const plain = basic ? Buffer.from(token, 'base64').toString('utf8') : ''
    res.setHeader('x-echo-token', token)
    res.setHeader('x-echo-key', key)
    res.setHeader('x-echo-basic', plain)
    res.setHeader(
      'location',
      `/next?api_key=${encodeURIComponent(key)}&t=${encodeURIComponent(token)}&b=${encodeURIComponent(plain)}`,
    )
    return `${authorization} ${token} ${key} ${encodeURIComponent(key)} ${plain}`
  }
  const Query = z.object({ q: z.string().max(5).optional() })
  app.get(
    '/echo',
    ...handle({ query: Query, security: [['bearer', 'key', 'query']] }, (req, res) => {
      throw AppError.validation([{ field: 'q', message: echo(req, res) }])
    }),
  )
  app.get(
    '/basic',
    ...handle({ query: Query, security: ['basic'] }, (req, res) => {
      throw AppError.validation([{ field: 'q', message: echo(req, res) }])
    }),
  )
  app.post(
    '/sessions',
    ...handle(
      {
        body: z.object({ name: z.string().max(10) }),
        security: [['bearer', 'key']],
        response: z.object({ token: z.string(), key: z.string() }),
      },
      (req, res) => {
        echo(req, res)
        const token = String(req.headers.authorization).replace(/^\S+ /, '')
        res.created({ data: { token, key: String(req.headers['x-api-key']) } })
      },
    ),
  )
  app.use(notFoundHandler(), errorHandler())
  return app
}

describe.each(hosts)('report files of an app that echoes its credentials on %s', (_, express) => {
  it('shows none of them, in any form, in JUnit, HAR or JSON, which stay valid', async () => {
    const error = (await fuzzRoutes(echoApp(express), {
      runs: 5,
      seed: 11,
      record: true,
      phases: ['examples', 'random'],
      auth: { bearer: ECHO_TOKEN, key: ECHO_KEY, query: ECHO_KEY, basic: BASIC },
    }).catch((e: unknown) => e)) as FuzzError
    const report = error.report
    expect(report.failures.map((f) => f.route).sort()).toEqual(['GET /basic', 'GET /echo'])
    // The echo reached the report: the invariants quote it, the exchanges hold it.
    expect(report.failures.every((f) => f.invariant.startsWith('a valid request got 422'))).toBe(
      true,
    )
    const raw = JSON.stringify(report.exchanges)
    for (const secret of [ECHO_TOKEN, encodeURIComponent(ECHO_KEY), basicPair])
      expect(raw).toContain(JSON.stringify(secret).slice(1, -1))
    const files = { junit: junitReport(report), har: harReport(report), json: jsonReport(report) }
    // The thrown text, which test runners print, hides them as the files do.
    for (const [name, text] of Object.entries({ ...files, thrown: error.message }))
      for (const form of secretForms) expect(text.includes(form), `${name}: ${form}`).toBe(false)
    // Still valid, the echoes shown as ***.
    expect(wellFormed(files.junit).tag).toBe('testsuites')
    expect(files.junit).toContain('a valid request got 422 (q: *** *** *** *** )')
    const entries = JSON.parse(files.har).log.entries as any[]
    const echoed = entries.find(
      (e) => e.comment.startsWith('GET /echo') && e.response.status === 422,
    )
    const header = (name: string) =>
      echoed.response.headers.find((h: any) => h.name === name)?.value
    expect([header('x-echo-token'), header('x-echo-key')]).toEqual(['***', '***'])
    expect(echoed.response.redirectURL).toMatch(/^\/next\?api_key=\*\*\*&t=\*\*\*&b=/)
    expect(echoed.request.queryString).toContainEqual({ name: 'api_key', value: '***' })
    const created = entries.find((e) => e.response.status === 201)
    expect(JSON.parse(created.response.content.text).data).toEqual({ token: '***', key: '***' })
    const basic = entries.find(
      (e) => e.comment.startsWith('GET /basic') && e.response.status === 422,
    )
    expect(basic.request.headers).toContainEqual({ name: 'authorization', value: 'Basic ***' })
    expect(readJsonReport(files.json).failures).toHaveLength(2)
  }, 60_000)
})

describe('credential values in report files', () => {
  it('masks the values the requests carry in named places, in every form, but not short ones in free text', () => {
    const request = {
      kind: 'valid' as const,
      method: 'POST',
      url: '/a?api_key=k%20ey-1234&page=2',
      headers: {
        authorization: 'Bearer abcd-secret',
        accept: 'application/json',
        'x-tenant': 'ab',
        cookie: 'sid=c%2Fookie-val; theme=dark',
      },
      body: '{"copy":"abcd-secret","tenant":"ab"}',
    }
    const answer = {
      status: 200,
      headers: {
        'set-cookie': ['sid=c%2fookie-val; Path=/'],
        'content-type': 'application/json',
        'x-echo': 'k ey-1234',
        location: '/b?x=k+ey-1234&api_key=anything',
      },
      text: '{"data":{"cookie":"c/ookie-val","t":"ab","lower":"k%20ey-1234"}}',
    }
    const report: FuzzReport = {
      routes: [{ route: 'POST /a', requests: 1, notes: [], phases: { random: 1 } }],
      requests: 1,
      failures: [
        {
          route: 'POST /a',
          phase: 'random',
          invariant: 'a valid request got 422 (copy: abcd-secret is taken)',
          request,
          curl: 'curl …',
          seed: 1,
        },
      ],
      seed: 1,
      skipped: [],
      exchanges: [{ route: 'POST /a', phase: 'random', request, answer, startedAt: 0 }],
      secrets: {
        headers: ['authorization', 'accept', 'x-tenant'],
        query: ['api_key'],
        cookies: ['sid'],
      },
    }
    // A binary body (an upload) is masked byte for byte in its curl line.
    const upload = { ...request, body: Buffer.from('--b\r\nabcd-secret\u0000\r\n--b--') }
    const uploaded = { ...report.failures[0]!, route: 'POST /b', request: upload }
    const files = [
      junitReport({ ...report, failures: [...report.failures, uploaded] }),
      harReport(report),
      jsonReport({ ...report, failures: [...report.failures, uploaded] }),
    ]
    for (const text of files) {
      expect(text).not.toMatch(/abcd-secret|ookie-val|k ey-1234|k%20ey-1234|k\+ey-1234|anything/)
      expect(text).toContain('page=2')
      expect(text).toContain('theme=dark')
    }
    const entry = JSON.parse(files[1]!).log.entries[0]
    // A short value is masked where it travels, not in free text ('ab' is in many words).
    expect(entry.request.headers).toContainEqual({ name: 'x-tenant', value: '***' })
    // A media type given as a header stays masked where it travels, not looked for elsewhere.
    expect(entry.request.headers).toContainEqual({ name: 'accept', value: '***' })
    expect(entry.response.content.mimeType).toBe('application/json')
    expect(entry.request.postData.text).toBe('{"copy":"***","tenant":"ab"}')
    expect(entry.response.content.text).toBe('{"data":{"cookie":"***","t":"ab","lower":"***"}}')
    expect(entry.response.redirectURL).toBe('/b?x=***&api_key=***')
    const read = readJsonReport(files[2]!).failures
    expect(String(read[1]!.request.body)).toBe('--b\r\n***\u0000\r\n--b--')
    expect(read[0]!.invariant).toBe('a valid request got 422 (copy: *** is taken)')
  })
})

describe.each(hosts)('report files on %s', (_, express) => {
  it('writes JUnit, HAR and JSON without a credential, and replays the saved failure', async () => {
    const state = { fixed: false }
    const a = app(express, state)
    const error = (await fuzzRoutes(a, { runs: 20, seed: 8, record: true, ...credentials }).catch(
      (e: unknown) => e,
    )) as FuzzError
    const report: FuzzReport = error.report
    expect(report.failures.map((f) => f.route)).toEqual(['POST /items'])
    const junit = junitReport(report)
    const har = harReport(report)
    const json = jsonReport(report)
    for (const text of [junit, har, json]) {
      expect(text).not.toContain(TOKEN)
      expect(text).not.toContain(KEY)
    }
    // JUnit: one testsuite per route, a failure with the invariant and the curl line.
    const root = wellFormed(junit)
    expect(root.tag).toBe('testsuites')
    const suites = root.children as { attrs: Record<string, string>; children: any[] }[]
    expect(suites.map((s) => s.attrs.name)).toEqual(['POST /items', 'methods'])
    const failed = suites[0]!.children
      .filter((c) => c.tag === 'testcase')
      .flatMap((c) => c.children)
      .filter((c: any) => c.tag === 'failure')
    expect(failed).toHaveLength(1)
    expect(failed[0].attrs.message).toBe('answered 500: a request must never get a 5xx')
    expect(root.attrs).toMatchObject({ failures: '1' })
    // HAR 1.2: the fields the format requires, one entry per request sent.
    const log = JSON.parse(har).log
    expect(log.version).toBe('1.2')
    expect(log.creator).toEqual({ name: expect.any(String), version: expect.any(String) })
    expect(log.entries).toHaveLength(report.exchanges!.length)
    for (const e of log.entries) {
      expect(new Date(e.startedDateTime).toISOString()).toBe(e.startedDateTime)
      expect(e).toMatchObject({ time: expect.any(Number), cache: {} })
      expect(e.request).toMatchObject({
        method: expect.any(String),
        url: expect.stringMatching(/^http:\/\/localhost:3000\//),
        httpVersion: expect.any(String),
        cookies: [],
        headers: expect.any(Array),
        queryString: expect.any(Array),
        headersSize: -1,
        bodySize: expect.any(Number),
      })
      expect(e.response).toMatchObject({
        status: expect.any(Number),
        statusText: expect.any(String),
        httpVersion: expect.any(String),
        cookies: [],
        headers: expect.any(Array),
        content: { size: expect.any(Number), mimeType: expect.any(String) },
        redirectURL: expect.any(String),
        headersSize: -1,
        bodySize: expect.any(Number),
      })
      expect(e.timings).toEqual({ send: 0, wait: expect.any(Number), receive: 0 })
    }
    const masked = log.entries[0].request.headers.find((h: any) => h.name === 'authorization')
    expect(masked.value).toBe('Bearer ***')
    // JSON: read back, replayed with the credentials given again.
    const { failures } = readJsonReport(json)
    expect(failures[0]!.request.headers['x-api-key']).toBe('***')
    const still = (await fuzzRoutes(a, { replay: failures, ...credentials }).catch(
      (e: unknown) => e,
    )) as FuzzError
    expect(still.report.failures.map((f) => f.invariant)).toEqual([
      'answered 500: a request must never get a 5xx',
    ])
    state.fixed = true
    const fixed = await fuzzRoutes(a, { replay: failures, ...credentials })
    expect(fixed.failures).toEqual([])
    expect(fixed.routes).toEqual([
      { route: 'POST /items', requests: 1, notes: [], phases: { [failures[0]!.phase]: 1 } },
    ])
  }, 60_000)

  it("masks the report options' extra query and cookie names in curl lines, whatever a header value ends with", () => {
    const request = {
      kind: 'valid' as const,
      method: 'GET',
      url: '/a?token=abc123&page=2',
      headers: { 'x-note': 'ends in \\', 'x-secret': 'hunter2', cookie: 'sid=zzz9; theme=dark' },
      body: undefined,
    }
    const report: FuzzReport = {
      routes: [{ route: 'GET /a', requests: 1, notes: [], phases: { random: 1 } }],
      requests: 1,
      failures: [
        { route: 'GET /a', phase: 'random', invariant: 'x', request, curl: 'curl …', seed: 1 },
      ],
      seed: 1,
      skipped: [],
    }
    const secrets = { headers: ['x-secret'], query: ['token'], cookies: ['sid'] }
    for (const text of [junitReport(report, { secrets }), jsonReport(report, { secrets })]) {
      expect(text).not.toMatch(/abc123|hunter2|zzz9/)
      expect(text).toContain('page=2')
      expect(text).toContain('theme=dark')
    }
  })

  it('escapes what XML cannot hold as is, and drops what it cannot hold at all', () => {
    const report: FuzzReport = {
      routes: [{ route: 'GET /a<&>"\'', requests: 1, notes: [], phases: { random: 1 } }],
      requests: 1,
      failures: [
        {
          route: 'GET /a<&>"\'',
          phase: 'random',
          invariant: 'x </failure> & \u0001 ]]>',
          request: { kind: 'valid', method: 'GET', url: '/a', headers: {}, body: undefined },
          curl: "curl 'http://localhost:3000/a?q=<b>&c=\u0000'",
          seed: 1,
        },
      ],
      seed: 1,
      skipped: ['a router mounted under / at a RegExp path'],
    }
    const root = wellFormed(junitReport(report))
    expect((root.children as any[]).map((s) => s.attrs.name)).toEqual([
      'GET /a&lt;&amp;&gt;&quot;&apos;',
      'not fuzzed',
    ])
  })
})
