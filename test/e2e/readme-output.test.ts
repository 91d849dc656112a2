import { createHash, createHmac } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import request from 'supertest'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  AppError,
  configureLogger,
  errorHandler,
  notFoundHandler,
  shapeguard,
} from '../../src/index.js'
import { jsonLine } from '../../src/runtime/logging/json-line.js'
import type { LogLevel } from '../../src/runtime/logging/levels.js'
import { logger } from '../../src/runtime/logging/logger.js'
import {
  abandon,
  arrived,
  captureLogger,
  type Express,
  hosts,
  withLogging,
} from '../support/e2e.js'
import { readmeBlocks, root, where } from '../support/readme-blocks.js'

// Every README block that shows output (`<!-- readme: output NAME -->` on a json or text block)
// is produced here by the scenario NAME, through a real app, and compared after normalising what
// changes from run to run: times, request IDs, durations and stack frames. A scenario that runs
// README code loads the `ts` block marked `<!-- readme: example NAME -->` as a module: `shapeguard`
// imports point at src/, `express` at the host under test, a trailing `app.listen(…)` line is
// dropped and `app` is exported.

const blocks = readmeBlocks()
const tmp = resolve(root, '.tmp/readme')
const slug = (host: string) => host.replace(' ', '')

function expected(name: string): string {
  const block = blocks.find((b) => b.output === name)
  if (block === undefined) throw new Error(`no README block is marked output ${name}`)
  return block.code
}

function rewrite(code: string, host: string): string {
  const express = slug(host) === 'express4' ? 'express4' : 'express'
  return code
    .replace(/from 'shapeguard'/g, `from '${root}/src/index.ts'`)
    .replace(/from 'shapeguard\/adapters\/(\w+)'/g, `from '${root}/src/adapters/$1/index.ts'`)
    .replace(/from 'shapeguard\/(\w+)'/g, `from '${root}/src/$1/index.ts'`)
    .replace(/from '\.\.\/\.\.\/src\//g, `from '${root}/src/`)
    .replace(/from 'express'/g, `from '${express}'`)
}

/** The app the README block marked `example NAME` builds, on the given host. */
async function example(name: string, host: string): Promise<ReturnType<Express>> {
  const block = blocks.find((b) => b.example === name)
  if (block === undefined) throw new Error(`no README block is marked example ${name}`)
  mkdirSync(tmp, { recursive: true })
  const givens = resolve(tmp, `givens-${name}-${slug(host)}.ts`)
  writeFileSync(givens, rewrite(readFileSync(resolve(root, 'test/readme/givens.ts'), 'utf8'), host))
  const imports =
    block.given.length > 0 ? `import { ${block.given.join(', ')} } from '${givens}'\n` : ''
  const code = block.code.replace(/^app\.listen\(.*\)\n/m, '')
  const file = resolve(tmp, `${name}-${slug(host)}.ts`)
  writeFileSync(file, `${imports}${rewrite(code, host)}export { app }\n`)
  return (await import(/* @vite-ignore */ file)).app
}

/** Pretty log text as the README shows it: times, IDs, durations and stack frames normalised. */
function normalisePretty(text: string): string[] {
  const lines = text
    // biome-ignore lint/suspicious/noControlCharactersInRegex: colours are stripped on purpose
    .replace(/\u001b\[[0-9;]*m/g, '')
    .replace(/^\d\d:\d\d:\d\d\.\d{3} /gm, '<time> ')
    .replace(/req_[0-9a-f]{24}/g, 'req_<id>')
    .replace(/ \d+ms /g, ' <n>ms ')
    .split('\n')
    .filter((line) => line !== '')
  return lines
    .filter((line, i) => !(/^\s+at /.test(line) && /^\s+at /.test(lines[i - 1] ?? '')))
    .map((line) => line.replace(/^(\s+)at .*/, '$1at …'))
}

/** One JSON log line with its time, ID, duration and stack frames normalised. */
function normaliseJson(line: string): string {
  return JSON.stringify(JSON.parse(line), (key, value) => {
    if (key === 'time') return '<time>'
    if (key === 'requestId') return 'req_<id>'
    if (key === 'duration_ms') return 0
    if (key === 'stack') return String(value).replace(/(\n\s+at .*)+/g, '\n    at …')
    return value
  })
}

/** What `fn` makes the logger print, once `lines` lines have been written. */
async function stdoutOf(lines: number, fn: () => Promise<void>): Promise<string> {
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
  const text = () => write.mock.calls.map((c) => String(c[0])).join('')
  await withLogging(async () => {
    await fn()
    await vi.waitUntil(() => normalisePretty(text()).length >= lines)
  })
  return text()
}

beforeAll(() => {
  configureLogger({ silent: true })
})

afterEach(() => {
  vi.restoreAllMocks()
})

// Slow enough that no other route of the app reaches it on a loaded machine.
const SLOW_MS = 250

/** The app behind the Logging section's examples: one route per kind of log line. */
function loggingApp(express: Express, options: Parameters<typeof shapeguard>[0]) {
  const app = express()
  // The section shows the request lines; its routes' response schemas are not the point.
  app.use(shapeguard({ warnings: { missingResponseSchema: false }, ...options }))
  app.get('/users/:id', (req, res) => res.ok({ data: { id: req.params.id } }))
  app.delete('/users/:id', () => {
    throw AppError.notFound('User')
  })
  app.get('/reports', async (_req, res) => {
    await new Promise((resolve) => setTimeout(resolve, SLOW_MS + 20))
    res.ok({ data: [] })
  })
  app.post('/orders', () => {
    throw new Error('db down', { cause: new Error('ECONNREFUSED 10.0.0.5:5432') })
  })
  app.get('/export', (req) => arrived(req))
  app.use(notFoundHandler(), errorHandler())
  return app
}

async function loggingRequests(app: ReturnType<Express>) {
  await request(app).get('/users/42')
  await request(app).delete('/users/7')
  await request(app).get('/reports')
  await request(app).post('/orders')
  await abandon(app, '/export')
}

describe.each(hosts)('%s', (host, express) => {
  it('quick-start-201, -422: the first guarded route of the quick start', async () => {
    const app = await example('quick-start', host)
    const created = await request(app).post('/greetings').send({ name: 'Ada' })
    expect(created.status).toBe(201)
    expect(created.body).toEqual(JSON.parse(expected('quick-start-201')))
    const refused = await request(app).post('/greetings').send({ name: '' })
    expect(refused.status).toBe(422)
    expect(refused.body).toEqual(JSON.parse(expected('quick-start-422')))
    expect((await request(app).get('/nowhere')).status).toBe(404)
  })

  it('usage-422: a bad request to the Usage example', async () => {
    const app = await example('usage', host)
    const res = await request(app).post('/users').send({ name: '', email: 'ada@example.com' })
    expect(res.status).toBe(422)
    expect(res.body).toEqual(JSON.parse(expected('usage-422')))
  })

  it('usage: GET /users/:id sends the user through its response schema, with no warning', async () => {
    const app = await example('usage', host)
    const warn = vi.spyOn(logger, 'warn')
    await request(app).post('/users').send({ name: 'Ada', email: 'ada@example.com' })
    const res = await request(app).get('/users/1')
    expect(res.body.data).toEqual({ id: 1, name: 'Ada', email: 'ada@example.com' })
    expect(warn).not.toHaveBeenCalled()
  })

  it('usage-log: the Usage example logs a good and a bad request', async () => {
    const app = await example('usage', host)
    const text = await stdoutOf(normalisePretty(expected('usage-log')).length, async () => {
      await request(app).post('/users').send({ name: 'Ada', email: 'ada@example.com' })
      await request(app).post('/users').send({ name: '', email: 'ada@example.com' })
    })
    expect(normalisePretty(text)).toEqual(normalisePretty(expected('usage-log')))
  })

  it('getting-started-201, -422: the first API of the getting-started guide', async () => {
    const app = await example('getting-started', host)
    const created = await request(app).post('/todos').send({ title: 'Write the docs' })
    expect(created.status).toBe(201)
    expect(created.body).toEqual(JSON.parse(expected('getting-started-201')))
    const refused = await request(app).patch('/todos/1').send({ title: '', owner: 'eve' })
    expect(refused.status).toBe(422)
    expect(refused.body).toEqual(JSON.parse(expected('getting-started-422')))
    // What the guide says of the other mistakes, and that a stranger key never reaches the data.
    expect((await request(app).patch('/todos/abc').send({})).status).toBe(422)
    expect((await request(app).patch('/todos/7').send({})).status).toBe(404)
    const notJson = await request(app)
      .post('/todos')
      .set('content-type', 'application/json')
      .send('{')
    expect(notJson.status).toBe(400)
    const updated = await request(app).patch('/todos/1').send({ done: true, owner: 'eve' })
    expect(updated.body.data).toEqual({ id: 1, title: 'Write the docs', done: true })
    const listed = await request(app).get('/todos?limit=1')
    expect(listed.body.data).toHaveLength(1)
    const doc = await request(app).get('/docs/openapi.json')
    expect(Object.keys(doc.body.paths).sort()).toEqual(['/todos', '/todos/{id}'])
    // assets: 'local': the page's code comes from the app, never from a CDN.
    const page = await request(app).get('/docs')
    expect(page.text).toMatch(/<script src="[^"]*assets\/[^"]+\/standalone\.js"/)
    expect(page.text).not.toContain('cdn.jsdelivr.net')
  })

  it('logging-pretty: the pretty lines of the Logging section', async () => {
    const app = loggingApp(express, { logger: { slowThreshold: SLOW_MS } })
    const text = await stdoutOf(normalisePretty(expected('logging-pretty')).length, () =>
      loggingRequests(app),
    )
    expect(normalisePretty(text)).toEqual(normalisePretty(expected('logging-pretty')))
  })

  it('logging-json: the same requests in production, as JSON records', async () => {
    const sink = captureLogger()
    const app = loggingApp(express, {
      debug: false,
      logger: { instance: sink, slowThreshold: SLOW_MS },
    })
    await withLogging(async () => {
      await loggingRequests(app)
      await vi.waitUntil(() => sink.records.some((r) => r.meta.aborted === true))
    })
    const lines = sink.records.map((r) =>
      jsonLine(r.level as LogLevel, new Date().toISOString(), r.meta, r.message),
    )
    const shown = expected('logging-json').split('\n').filter(Boolean)
    expect(lines.map(normaliseJson)).toEqual(shown.map(normaliseJson))
  })

  it('body-too-deep: the limits example answers a body nested past maxDepth', async () => {
    const app = await example('limits', host)
    app.use(errorHandler()) // mounted last, as the Errors section says
    let body: unknown = { sku: 'A-1' }
    for (let i = 0; i < 10; i++) body = { rows: [body] }
    const res = await request(app)
      .post('/imports')
      .send(body as object)
    expect(res.status).toBe(400)
    expect(res.body).toEqual(JSON.parse(expected('body-too-deep')))
  })

  it('files-413: the files example answers an avatar over its maxBytes', async () => {
    const app = await example('files', host)
    app.use(errorHandler())
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    const res = await request(app)
      .post('/profile')
      .field('title', 'Holidays')
      .field('year', '2024')
      .attach('avatar', Buffer.concat([png, Buffer.alloc(2_000_000)]), 'me.png')
    expect(res.status).toBe(413)
    expect(res.body).toEqual(JSON.parse(expected('files-413')))
    const ok = await request(app)
      .post('/profile')
      .field('title', 'Holidays')
      .field('year', '2024')
      .attach('avatar', png, 'me.png')
    expect(ok.status).toBe(201)
    expect(ok.body.data).toEqual({ title: 'Holidays', avatar: 8, photos: 0, scan: false })
  })

  it('rate-limit-429: the sixth login attempt within the minute', async () => {
    const app = await example('rate-limit', host)
    app.use(errorHandler())
    const login = () =>
      request(app).post('/login').send({ email: 'ada@example.com', password: 'correct horse' })
    for (let i = 0; i < 5; i++) expect((await login()).status).toBe(201)
    const res = await login()
    expect(res.status).toBe(429)
    expect(res.headers['retry-after']).toBe('60')
    expect(res.body).toEqual(JSON.parse(expected('rate-limit-429')))
  })

  it('webhook-401: a GitHub delivery whose signature does not match', async () => {
    vi.stubEnv('GITHUB_WEBHOOK_SECRET', 'readme-secret')
    try {
      const app = await example('webhooks', host)
      const body = '{"action":"opened"}'
      const good = createHmac('sha256', 'readme-secret').update(body).digest('hex')
      const ok = await request(app)
        .post('/hooks/github')
        .set('X-Hub-Signature-256', `sha256=${good}`)
        .type('json')
        .send(body)
      expect([ok.status, ok.body]).toEqual([200, { received: 'opened' }])
      const res = await request(app)
        .post('/hooks/github')
        .set('X-Hub-Signature-256', `sha256=${'0'.repeat(64)}`)
        .type('json')
        .send(body)
      expect(res.status).toBe(401)
      expect(res.body).toEqual(JSON.parse(expected('webhook-401')))
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('docs-csp-local, docs-csp-cdn: the CSP of each docs page of the example', async () => {
    const app = await example('docs-pages', host)
    const shown = async (path: string) => {
      const res = await request(app).get(path)
      expect(res.status).toBe(200)
      const csp = String(res.headers['content-security-policy'])
      const bootstrap = /<script>([\s\S]*?)<\/script>/.exec(res.text)![1]!
      const hash = createHash('sha256').update(bootstrap).digest('base64')
      expect(csp).toContain(`'sha256-${hash}'`)
      return `${csp.replace(`'sha256-${hash}'`, "'sha256-<the bootstrap's hash>'").split('; ').join('\n')}\n`
    }
    expect(await shown('/docs')).toBe(expected('docs-csp-local'))
    expect(await shown('/internal/api-docs/')).toBe(expected('docs-csp-cdn'))
    expect((await request(app).get('/docs/postman.json')).body.info.name).toBe('Shop API')
  })
})

// Outputs shown as comments inside an example: the answer, as the comment writes it, must be there.
describe.each(hosts)('%s: comments in examples', (host) => {
  const code = (name: string) => blocks.find((b) => b.example === name)?.code ?? ''

  it('responses: res.ok answers GET with 200 and POST with 201', async () => {
    const app = await example('responses', host)
    const get = await request(app).get('/users/1')
    expect(code('responses')).toContain(`// ${get.status} ${JSON.stringify(get.body)}\n`)
    const post = await request(app).post('/users').send({ name: 'Ada' })
    expect(code('responses')).toContain(`// ${post.status}: res.ok answers POST with 201`)
  })

  it('with-shape: a per-route shape and raw data', async () => {
    const app = await example('with-shape', host)
    const me = await request(app).get('/me')
    expect(code('with-shape')).toContain(`// ${JSON.stringify(me.body)}\n`)
    const health = await request(app).get('/health')
    expect(code('with-shape')).toContain(`// ${JSON.stringify(health.body)}\n`)
  })

  it('router: a registered path with another method gets 405 and Allow', async () => {
    const app = await example('router', host)
    const res = await request(app).patch('/users/1')
    expect(code('router')).toContain(
      `// PATCH /users/1 → ${res.status}, Allow: ${res.headers.allow}\n`,
    )
    const { message, error } = res.body
    expect(code('router')).toContain(`{"success":false,"message":${JSON.stringify(message)},`)
    expect(code('router')).toContain(
      `"error":{"code":"${error.code}","message":"…","details":${JSON.stringify(error.details)}}}`,
    )
  })
})

it('has a scenario for every output block of the README and docs/, each name once', () => {
  const names = [
    'quick-start-201',
    'quick-start-422',
    'getting-started-201',
    'getting-started-422',
    'usage-422',
    'usage-log',
    'logging-pretty',
    'logging-json',
    'body-too-deep',
    'files-413',
    'rate-limit-429',
    'webhook-401',
    'docs-csp-local',
    'docs-csp-cdn',
    'fuzz-failure',
    // test/e2e/recipes-joi.test.ts
    'joi-422',
    // test/e2e/problem-details-readme.test.ts
    'problem-422',
    'problem-409',
    // test/e2e/telemetry-docs.test.ts
    'otel-log-line',
    'otel-span',
    // test/e2e/telemetry-traceparent-logger.test.ts
    'otel-handler-line',
    // test/e2e/logging-apps.test.ts
    'handler-log',
    // test/e2e/cookies-readme.test.ts
    'cookies-422',
    // test/e2e/auth-readme.test.ts
    'auth-401',
    // test/e2e/streaming-readme.test.ts
    'streaming-wire',
    'streaming-error',
    // test/e2e/production-readme.test.ts
    'production-timeout',
    // test/e2e/api-evolution-readme.test.ts
    'deprecation-headers',
    // test/cli/coverage.test.ts and test/cli/diff.test.ts
    'coverage-table',
    'diff-breaking',
  ]
  const marked = blocks.filter((b) => b.output !== undefined)
  expect(marked.map((b) => b.output).sort()).toEqual([...names].sort())
  expect(marked.map(where)).toHaveLength(names.length)
  const examples = blocks.flatMap((b) => (b.example === undefined ? [] : [b.example]))
  expect(new Set(examples).size, 'example names are unique').toBe(examples.length)
})
