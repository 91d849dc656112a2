import type { Request, Response } from 'express'
import { resolveConfig } from '../src/runtime/config/resolve-config.js'
import { contextOf } from '../src/runtime/context/context.js'
import { validate } from '../src/runtime/pipeline/validate.js'
import { validQuery, validUser, zodSchemas } from '../test/fixtures/schemas.js'
import { type Comparison, compare, printComparison, writeResults } from './lib.js'

// Question: is the whole validate() middleware (content type, body and query guards, validation,
// writing the outputs back) faster than zod's safeParse alone on the same valid input?
// Fixtures: the "create user" body and the coerced query of test/fixtures/schemas.ts.

const CreateUser = zodSchemas.body
const Query = zodSchemas.query
const user = validUser
const query = validQuery

// A request as Express hands it over after express.json(): the middleware is called directly so
// the numbers are the middleware's own, not the HTTP stack's.
const headers = { 'content-type': 'application/json', 'content-length': '250', host: 'x' }
const req = { method: 'POST', url: '/users', headers, body: user, query, params: {} }
const res = {}
contextOf(res as Response).config = resolveConfig({ debug: false })
let failures = 0
const next = (err?: unknown) => {
  if (err !== undefined) failures++
}

const bodyOnly = validate({ body: CreateUser })
const bodyAndQuery = validate({ body: CreateUser, query: Query })
const noQuery = {}
const call = (mw: typeof bodyOnly, q: object) => {
  req.body = user
  ;(req as { query: unknown }).query = q
  mw(req as unknown as Request, res as Response, next)
}
call(bodyAndQuery, query)
if (failures > 0 || (req.query as { page: unknown }).page !== 3)
  throw new Error('validate() rejected')

const results: Comparison[] = []
const body = await compare('create user body, valid input', 'zod safeParse', {
  'zod safeParse': () => CreateUser.safeParse(user),
  'validate() middleware': () => call(bodyOnly, noQuery),
})
const both = await compare('create user body + coerced query, valid input', 'zod safeParse', {
  'zod safeParse': () => {
    CreateUser.safeParse(user)
    Query.safeParse(query)
  },
  'validate() middleware': () => call(bodyAndQuery, query),
})
for (const c of [body, both]) printComparison(c)
results.push(body, both)
if (failures > 0) throw new Error(`validate() rejected ${failures} valid requests`)

const hz = (c: Comparison, n: string) => c.cases.find((x) => x.name === n)!.opsPerSec
const ratios = {
  body: Number((hz(body, 'validate() middleware') / hz(body, 'zod safeParse')).toFixed(2)),
  bodyAndQuery: Number((hz(both, 'validate() middleware') / hz(both, 'zod safeParse')).toFixed(2)),
}
process.stdout.write(`\nvalidate() vs zod safeParse (> 1 is faster): ${JSON.stringify(ratios)}\n`)
writeResults('validate', {
  question: 'validate() middleware as a whole vs zod safeParse alone, valid input',
  target: 'ratio > 1',
  ratios,
  results,
})
