import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Request, RequestHandler, Response } from 'express'
import * as v from 'valibot'
import { valibotAdapter } from '../src/adapters/valibot/index.js'
import { yupAdapter } from '../src/adapters/yup/index.js'
import { zodAdapter } from '../src/adapters/zod/index.js'
import { compile } from '../src/engine/compile/compile.js'
import { configureLogger, shapeguard } from '../src/index.js'
import { guardBody, resolveLimits } from '../src/runtime/guards/index.js'
import { validate } from '../src/runtime/pipeline/validate.js'
import {
  parsedQuery,
  valibotSchemas,
  validQuery,
  validUser,
  yupSchemas,
  zodSchemas,
} from '../test/fixtures/schemas.js'
import { type ExpressPair, expressRoute, type MakeRequests } from './fixtures/express-requests.js'
import { type Comparison, compare, printComparison, writeResults } from './lib.js'

// Question: what does the validate() middleware itself cost per request, next to zod's
// safeParse, valibot's safeParse and yup's validateSync alone on the same valid input?
// Fixture: the "create user" body of test/fixtures/schemas.ts in each library (an email, a regex,
// a nested object, an optional field, an enum), and for zod also its coerced query.
//
// Method. Every call gets a request it has never seen, as a server's middleware does: before each
// sample, untimed, BATCH new requests and responses go through a real Express 5 app (shapeguard(),
// express.json() reading the body stream, the router; bench/fixtures/express-requests.ts) and are
// captured where the route starts. The sample then times the case once on each of them, with one
// pair of clock reads for the whole batch, and reports the mean per call (tinybench's
// `overriddenDuration`). The harness (a loop over prepared arrays and a call) costs a few tens of
// ns per call, shown by a no-op middleware timed the same way, so each figure is the case's own
// cost. Making one request through Express takes microseconds (also shown): timed with each call,
// it would hide a middleware's own cost. The middleware runs its whole path (content-type guard,
// body and query guards, validation, values written back to req.body and req.query) on objects
// in the mode shapeguard() leaves them on this Node line (src/runtime/core/dictionary-mode.ts), and
// must accept every call. Each library alone gets the same parsed bodies, from the same batches.
// Results: bench/results/validate.json, one entry per Node line, replaced by each run on that line.

configureLogger({ silent: true })

const BATCH = 64
const bodyUrl = '/users'
const queryUrl = '/users?page=3&limit=50&sort=-name&tags=a&tags=b'
const app = { before: [shapeguard({ debug: false })] }
const bodyRoute = expressRoute({ url: bodyUrl, body: validUser, ...app })
const queryRoute = expressRoute({ url: queryUrl, body: validUser, ...app })

let accepted = 0
let rejected = 0
let lastError: unknown
const next = (err?: unknown) => {
  if (err === undefined) accepted++
  else {
    rejected++
    lastError = err
  }
}
const failures: string[] = []

type Run = (req: Request, res: Response, input: unknown) => unknown
const bodyOf = (p: ExpressPair) => p.req.body as unknown

/**
 * One tinybench sample: BATCH new pairs from `route` and their inputs (untimed), then `run` once on
 * each, timed as a whole; the sample is the mean per call. A middleware (`callsNext`) must have
 * accepted every request.
 */
function batched(
  name: string,
  route: MakeRequests,
  run: Run,
  options: { input?: (p: ExpressPair) => unknown; callsNext?: boolean } = {},
): () => Promise<{ overriddenDuration: number; overriddenIterationCost: number }> {
  const input = options.input ?? bodyOf
  const reqs: Request[] = new Array(BATCH)
  const ress: Response[] = new Array(BATCH)
  const inputs: unknown[] = new Array(BATCH)
  return async () => {
    const start = process.hrtime.bigint()
    const pairs = await route(BATCH)
    for (let i = 0; i < BATCH; i++) {
      reqs[i] = pairs[i]!.req
      ress[i] = pairs[i]!.res
      inputs[i] = input(pairs[i]!)
    }
    const before = accepted
    const t0 = process.hrtime.bigint()
    for (let i = 0; i < BATCH; i++) run(reqs[i]!, ress[i]!, inputs[i])
    const t1 = process.hrtime.bigint()
    if (options.callsNext && accepted - before !== BATCH && !failures.includes(name))
      failures.push(name)
    return {
      overriddenDuration: Number(t1 - t0) / 1e6 / BATCH,
      overriddenIterationCost: Number(t1 - start) / 1e6,
    }
  }
}

const middleware = (name: string, route: MakeRequests, mw: RequestHandler) =>
  batched(name, route, (req, res) => mw(req, res, next), { callsNext: true })

// Each middleware is checked once on a new request before it is timed: accepted, outputs written.
async function check(
  name: string,
  route: MakeRequests,
  mw: RequestHandler,
  query = false,
): Promise<void> {
  const { req, res } = (await route(1))[0]!
  const before = accepted
  mw(req, res, next)
  const body = req.body as { email?: unknown; address?: { zip?: unknown } }
  const ok =
    accepted === before + 1 &&
    body.email === validUser.email &&
    body.address?.zip === validUser.address.zip &&
    (!query || JSON.stringify(req.query) === JSON.stringify(parsedQuery))
  if (!ok) throw new Error(`${name} did not accept a valid request`, { cause: lastError })
}

function ensure(name: string, ok: boolean): void {
  if (!ok) throw new Error(`${name} rejected the valid fixture`)
}

const limits = resolveLimits(undefined, undefined)
const noop: RequestHandler = (_req, _res, n) => n()
await check('no-op middleware', bodyRoute, noop)

// One Express pass per request (wall time, BATCH in flight at once): what every other case leaves
// out of its timing.
const building = async () => {
  const start = process.hrtime.bigint()
  await bodyRoute(BATCH)
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  return { overriddenDuration: ms / BATCH, overriddenIterationCost: ms }
}

interface Library {
  library: 'zod' | 'valibot' | 'yup'
  alone: string
  parse: (body: unknown) => unknown
  ok: (body: unknown) => boolean
  schema: unknown
  adapter: Parameters<typeof compile>[0]
}

const yupOptions = { abortEarly: true, stripUnknown: true }
const libraries: Library[] = [
  {
    library: 'zod',
    alone: 'zod safeParse',
    parse: (body) => zodSchemas.body.safeParse(body),
    ok: (body) => zodSchemas.body.safeParse(body).success,
    schema: zodSchemas.body,
    adapter: zodAdapter(zodSchemas.body),
  },
  {
    library: 'valibot',
    alone: 'valibot safeParse',
    parse: (body) => v.safeParse(valibotSchemas.body, body),
    ok: (body) => v.safeParse(valibotSchemas.body, body).success,
    schema: valibotAdapter(valibotSchemas.body),
    adapter: valibotAdapter(valibotSchemas.body),
  },
  {
    // yup as yupAdapter runs it (docs: unknown keys removed, first error only).
    library: 'yup',
    alone: 'yup validateSync',
    parse: (body) => yupSchemas.body.validateSync(body, yupOptions),
    ok: (body) => yupSchemas.body.isValidSync(body, yupOptions),
    schema: yupAdapter(yupSchemas.body),
    adapter: yupAdapter(yupSchemas.body),
  },
]

const results: Comparison[] = []
const perLibrary: Record<string, Record<string, number>> = {}
const hz = (c: Comparison, name: string) => c.cases.find((x) => x.name === name)!.opsPerSec
const ns = (c: Comparison, name: string) => c.cases.find((x) => x.name === name)!.meanNs
// > 1: `a` takes less time per call than `b`.
const ratio = (c: Comparison, a: string, b: string) => Number((hz(c, a) / hz(c, b)).toFixed(2))

for (const lib of libraries) {
  const engine = compile(lib.adapter)
  if (!engine.compiled) throw new Error(`${lib.library}: the create-user body is not compiled`)
  ensure(lib.alone, lib.ok(validUser))
  ensure(
    `${lib.library} engine`,
    (engine.validate(validUser, false) as { success: boolean }).success,
  )
  const mw = validate({ body: lib.schema as never })
  const name = `validate() with the ${lib.library} schema`
  await check(name, bodyRoute, mw)
  const cases: Record<string, () => unknown> = {
    [lib.alone]: batched(lib.alone, bodyRoute, (_q, _s, body) => lib.parse(body)),
    'engine alone': batched('engine alone', bodyRoute, (_q, _s, body) =>
      engine.validate(body, false),
    ),
    [name]: middleware(name, bodyRoute, mw),
  }
  if (lib.library === 'zod') {
    cases['body guard alone'] = batched('body guard alone', bodyRoute, (_q, _s, body) =>
      guardBody(body, limits),
    )
    cases['harness alone (no-op middleware)'] = middleware('no-op', bodyRoute, noop)
    cases['making one request through Express'] = building
  }
  const c = await compare(
    `${lib.library}: create-user body, valid input, new Express request per call`,
    lib.alone,
    cases,
    { rounds: 5 },
  )
  printComparison(c)
  results.push(c)
  perLibrary[lib.library] = {
    aloneNs: ns(c, lib.alone),
    engineNs: ns(c, 'engine alone'),
    validateNs: ns(c, name),
    validateVsAlone: ratio(c, name, lib.alone),
    engineVsAlone: ratio(c, 'engine alone', lib.alone),
  }
  if (lib.library === 'zod') {
    perLibrary.zod!.bodyGuardNs = ns(c, 'body guard alone')
    perLibrary.harness = {
      noopMiddlewareNs: ns(c, 'harness alone (no-op middleware)'),
      expressRequestNs: ns(c, 'making one request through Express'),
    }
  }
}

// Body and coerced query: the query is read through Express 5's req.query getter, which parses
// the query string on every read; zod alone gets the getter's result, read untimed.
const both = validate({ body: zodSchemas.body, query: zodSchemas.query })
await check('validate() body + query', queryRoute, both, true)
ensure('zod query', zodSchemas.query.safeParse(validQuery).success)
const withQuery = (p: ExpressPair) => [p.req.body, p.req.query] as const
const query = await compare(
  'zod: create-user body + coerced query, valid input, new Express request per call',
  'zod safeParse x2',
  {
    'zod safeParse x2': batched(
      'zod safeParse x2',
      queryRoute,
      (_q, _s, input) => {
        const [body, q] = input as ReturnType<typeof withQuery>
        zodSchemas.body.safeParse(body)
        return zodSchemas.query.safeParse(q)
      },
      { input: withQuery },
    ),
    "Express's req.query getter alone": batched('req.query', queryRoute, (req) => req.query),
    'validate() body + query': middleware('validate() body + query', queryRoute, both),
  },
  { rounds: 5 },
)
printComparison(query)
results.push(query)
perLibrary.zodBodyAndQuery = {
  aloneNs: ns(query, 'zod safeParse x2'),
  queryGetterNs: ns(query, "Express's req.query getter alone"),
  validateNs: ns(query, 'validate() body + query'),
  validateVsAlone: ratio(query, 'validate() body + query', 'zod safeParse x2'),
}
if (rejected > 0 || failures.length > 0) {
  const which = failures.join(', ')
  throw new Error(`validate() rejected ${rejected} valid requests (${which})`, { cause: lastError })
}

// One file for every Node line: this run replaces its own line's entry and keeps the others.
const line = process.versions.node.split('.')[0]!
const file = join(import.meta.dirname, 'results', 'validate.json')
type Line = { node: string; date: string; figures: typeof perLibrary; results: Comparison[] }
let lines: Record<string, Line> = {}
try {
  lines =
    (JSON.parse(readFileSync(file, 'utf8')) as { results?: { lines?: typeof lines } }).results
      ?.lines ?? {}
} catch {
  // No results yet.
}
lines[line] = {
  node: process.version,
  date: new Date().toISOString(),
  figures: perLibrary,
  results,
}
lines = Object.fromEntries(Object.entries(lines).sort(([a], [b]) => Number(a) - Number(b)))

const table = markdown(lines)
process.stdout.write(`\n${table}\n`)
writeResults('validate', {
  question:
    "validate()'s own cost per request against each library alone, on a new Express 5 request per call",
  target: 'validateVsAlone > 1',
  method: `batches of ${BATCH} requests made through Express untimed, then timed together`,
  lines,
})

function times(x: number | undefined): string {
  return x === undefined ? '–' : `${x.toFixed(2)}×`
}

/** Every recorded line side by side: ns per call, and validate() vs each library alone. */
function markdown(all: Record<string, Line>): string {
  const keys = Object.keys(all)
  const head = `| create-user body, valid input | ${keys.map((k) => `Node ${k}`).join(' | ')} |`
  const rule = `| --- | ${keys.map(() => '---:').join(' | ')} |`
  const row = (label: string, cell: (f: Line['figures']) => string) =>
    `| ${label} | ${keys.map((k) => cell(all[k]!.figures)).join(' | ')} |`
  const rows: string[] = []
  for (const lib of ['zod', 'valibot', 'yup']) {
    const alone = libraries.find((l) => l.library === lib)!.alone
    rows.push(
      row(`${alone}, ns`, (f) => `${f[lib]?.aloneNs ?? '–'}`),
      row(`validate() with the ${lib} schema, ns`, (f) => `${f[lib]?.validateNs ?? '–'}`),
      row(`validate() vs ${alone} (> 1: faster)`, (f) => times(f[lib]?.validateVsAlone)),
    )
  }
  rows.push(
    row('zod body + query: two safeParse, ns', (f) => `${f.zodBodyAndQuery?.aloneNs ?? '–'}`),
    row('zod body + query: validate(), ns', (f) => `${f.zodBodyAndQuery?.validateNs ?? '–'}`),
    row('zod body + query: validate() vs safeParse', (f) => {
      return times(f.zodBodyAndQuery?.validateVsAlone)
    }),
    row("zod body + query: Express's req.query getter, ns", (f) => {
      return `${f.zodBodyAndQuery?.queryGetterNs ?? '–'}`
    }),
    row('harness (no-op middleware), ns', (f) => `${f.harness?.noopMiddlewareNs ?? '–'}`),
    row('one request through Express (untimed), ns', (f) => {
      return `${f.harness?.expressRequestNs ?? '–'}`
    }),
  )
  return [head, rule, ...rows].join('\n')
}
