import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  configureLogger,
  createRouter,
  errorHandler,
  notFoundHandler,
  shapeguard,
} from '../../src/index.js'
import { dispatchThroughTable } from '../../src/runtime/router/table-dispatch.js'
import { captureLogger, type Express, hosts } from '../support/e2e.js'
import { type Served, serve } from '../support/serve.js'

// Differential test of createRouter's route table: random route sets (static and parameter
// segments that overlap, patterns the table cannot read, use() middleware with and without a
// path, next(), next('route'), errors, URL rewrites, routes added while requests run and after
// mounting, param callbacks, router options) and random requests (methods with HEAD and OPTIONS,
// case, trailing slashes, encodings) get the same answers from a createRouter() as from
// express.Router() (without notFoundHandler), and, with notFoundHandler and errorHandler, the same
// 405 and Allow as createRouter's dispatch with every layer listed (no table).

beforeAll(() => {
  configureLogger({ silent: true })
})

interface Pattern {
  segments: ({ lit: string } | { param: true })[]
  slash: boolean
  special: 'optional' | 'wild' | 'regexp' | undefined
}
type Behaviour = 'send' | 'next' | 'route' | 'error'
interface RouteEntry {
  kind: 'route'
  methods: string[]
  pattern: Pattern
  behaviour: Behaviour
  chain: boolean
}
interface UseEntry {
  kind: 'use'
  prefix: Pattern | null
  behaviour: 'tag' | 'send' | 'rewrite' | 'error' | 'catch' | 'add'
  target: string
}
type Entry = RouteEntry | UseEntry
interface Spec {
  entries: Entry[]
  late: RouteEntry[]
  mount: '' | '/m' | '/m/:mid'
  options: { strict: boolean; caseSensitive: boolean; mergeParams: boolean }
  paramCallback: boolean
}

const words = ['a', 'b', 'Users', 'x.y', 'v1']
const segment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...words).map((lit) => ({ lit })) },
  { weight: 2, arbitrary: fc.constant({ param: true as const }) },
)
const plain = fc.record({
  segments: fc.array(segment, { maxLength: 3 }),
  slash: fc.boolean(),
  special: fc.constant(undefined),
})
const pattern: fc.Arbitrary<Pattern> = fc.record({
  segments: fc.array(segment, { maxLength: 3 }),
  slash: fc.boolean(),
  special: fc.constantFrom(
    undefined,
    undefined,
    undefined,
    undefined,
    'optional',
    'wild',
    'regexp',
  ),
})
const requestPath = fc
  .tuple(
    fc.array(
      fc.oneof(
        fc.constantFrom(...words, 'A', 'USERS', 'x.Y', 'V1', 'users'),
        fc.constantFrom('42', '%41', '%zz', 'f3', '', 'a%2Fb', 'K'),
      ),
      { maxLength: 4 },
    ),
    fc.constantFrom('', '', '/', '//'),
    fc.constantFrom('', '', '?q=1'),
  )
  .map(([segments, end, query]) => `/${segments.join('/')}${end}${query}`)
const route: fc.Arbitrary<RouteEntry> = fc.record({
  kind: fc.constant('route' as const),
  methods: fc.subarray(['get', 'post', 'put', 'delete', 'all'], { minLength: 1, maxLength: 2 }),
  pattern,
  behaviour: fc.constantFrom<Behaviour>('send', 'send', 'send', 'next', 'route', 'error'),
  chain: fc.boolean(),
})
// Paths that many patterns match, so that rewrites and added routes meet left-out layers.
const common = fc.constantFrom('/a', '/b/1', '/users', '/a/b', '/f3', '/x.y/7/', '/A?q=2')
const use: fc.Arbitrary<UseEntry> = fc.record({
  kind: fc.constant('use' as const),
  prefix: fc.option(plain, { nil: null }),
  behaviour: fc.constantFrom('tag', 'tag', 'send', 'rewrite', 'rewrite', 'error', 'catch', 'add'),
  target: fc.oneof(common, requestPath),
})
const spec: fc.Arbitrary<Spec> = fc.record({
  entries: fc.array(fc.oneof({ weight: 4, arbitrary: route }, { weight: 1, arbitrary: use }), {
    minLength: 1,
    maxLength: 14,
  }),
  late: fc.array(route, { maxLength: 2 }),
  mount: fc.constantFrom('' as const, '/m' as const, '/m/:mid' as const),
  options: fc.record({
    strict: fc.boolean(),
    caseSensitive: fc.boolean(),
    mergeParams: fc.boolean(),
  }),
  paramCallback: fc.boolean(),
})

function render(p: Pattern, express5: boolean): string | RegExp {
  let n = 0
  const body = p.segments.map((s) => ('lit' in s ? s.lit : `:p${n++}`)).join('/')
  const base = body === '' ? '' : `/${body}`
  const first = p.segments[0]
  if (p.special === 'regexp') return new RegExp(`^/${first && 'lit' in first ? first.lit : 'a'}`)
  if (p.special === 'optional') return `${base}${express5 ? `{/:p${n}}` : `/:p${n}?`}`
  if (p.special === 'wild') return `${base}${express5 ? '/*rest' : '/*'}`
  return base === '' ? '/' : `${base}${p.slash ? '/' : ''}`
}

type Req = { trail: string[]; url: string; params: object; baseUrl: string; originalUrl: string }
type Res = { status(n: number): Res; json(body: object): void }
type Next = (err?: unknown) => void

const echo = (tag: string, req: Req, res: Res, status = 200) =>
  res.status(status).json({
    tag,
    trail: req.trail,
    params: req.params,
    url: req.url,
    baseUrl: req.baseUrl,
    originalUrl: req.originalUrl,
  })

type Variant = 'express.Router' | 'table' | 'scan'

function addRoute(router: Record<string, any>, entry: RouteEntry, id: string, express5: boolean) {
  const path = render(entry.pattern, express5)
  const handler = (req: Req, res: Res, next: Next) => {
    req.trail.push(id)
    if (entry.behaviour === 'send') echo(id, req, res)
    else if (entry.behaviour === 'next') next()
    else if (entry.behaviour === 'route') next('route')
    else next(new Error(id))
  }
  if (entry.chain) {
    const r = router.route(path)
    for (const method of entry.methods) r[method](handler)
  } else for (const method of entry.methods) router[method](path, handler)
}

function build(express: Express, variant: Variant, s: Spec, ours: boolean) {
  const express5 = express === hosts[1][1]
  const router: Record<string, any> =
    variant === 'table'
      ? createRouter({ Router: express.Router, ...s.options })
      : express.Router(s.options)
  // The reference for 405 and Allow: createRouter's dispatch with every layer listed.
  if (variant === 'scan')
    dispatchThroughTable(router as never, () => express.Router() as never, false)
  // Fillers first: paths the requests rarely meet, left out of most lists.
  for (let i = 0; i < 12; i++) router.get(`/f${i}`, (req: Req, res: Res) => echo(`f${i}`, req, res))
  if (s.paramCallback)
    router.param('p0', (req: Req, _res: Res, next: Next, value: string) => {
      req.trail.push(`param:${value}`)
      next()
    })
  let added = false
  for (const [i, entry] of s.entries.entries()) {
    const id = `${entry.kind}${i}`
    if (entry.kind === 'route') {
      addRoute(router, entry, id, express5)
      continue
    }
    const run = (req: Req, res: Res, next: Next) => {
      req.trail.push(id)
      if (entry.behaviour === 'send') echo(id, req, res, 201)
      else if (entry.behaviour === 'rewrite') {
        req.url = entry.target
        next()
      } else if (entry.behaviour === 'error') next(new Error(id))
      else if (entry.behaviour === 'add') {
        if (!added) router.get(entry.target.split('?')[0], (q: Req, r: Res) => echo(`${id}+`, q, r))
        added = true
        next()
      } else next()
    }
    const fn =
      entry.behaviour === 'catch'
        ? (err: Error, req: Req, res: Res, _next: Next) =>
            echo(`${id}:${err.message}`, req, res, 418)
        : run
    if (entry.prefix === null) router.use(fn as never)
    else router.use(render(entry.prefix, express5), fn as never)
  }
  const app = express()
  if (ours) app.use(shapeguard({ debug: false }))
  app.use((req, _res, next) => {
    ;(req as unknown as Req).trail = []
    next()
  })
  app.use(s.mount === '' ? '/' : s.mount, router as never)
  app.get('/a', (req, res) => echo('app', req as never, res as never))
  if (ours) app.use(notFoundHandler(), errorHandler({ debug: false, logger: captureLogger() }))
  else {
    app.use((req, res) => echo('fell', req as never, res as never, 404))
    const failed = (err: Error, req: Req, res: Res, _next: Next) =>
      echo(`error:${err.message}`, req, res, (err as { status?: number }).status ?? 500)
    app.use(failed as never)
  }
  for (const [i, entry] of s.late.entries()) addRoute(router, entry, `late${i}`, express5)
  return app
}

const methods = ['GET', 'GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']
const request = fc.record({
  method: fc.constantFrom(...methods),
  prefix: fc.constantFrom('', '/m', '/m/7', '/M'),
  path: fc.oneof(requestPath, common),
})

async function answers(app: ReturnType<Express>, requests: { method: string; path: string }[]) {
  const served: Served = await serve(app)
  try {
    const out = []
    for (const { method, path } of requests) {
      const a = await served.send(method, path)
      out.push({
        request: `${method} ${path}`,
        status: a.status,
        allow: a.headers.allow,
        type: a.headers['content-type'],
        text: a.text,
      })
    }
    return out
  } finally {
    await served.close()
  }
}

describe.each(hosts)('createRouter route table on %s', (_, express) => {
  it('answers as express.Router() does, and as a createRouter() that scans', async () => {
    await fc.assert(
      fc.asyncProperty(spec, fc.array(request, { minLength: 1, maxLength: 24 }), async (s, rs) => {
        const requests = rs.map((r) => ({ method: r.method, path: `${r.prefix}${r.path}` }))
        const plain = await answers(build(express, 'express.Router', s, false), requests)
        expect(await answers(build(express, 'table', s, false), requests)).toEqual(plain)
        const scan = await answers(build(express, 'scan', s, true), requests)
        expect(await answers(build(express, 'table', s, true), requests)).toEqual(scan)
      }),
      { numRuns: 60 },
    )
  }, 120_000)
})
