import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import express, { type Request, type Response } from 'express'
import { zodAdapter } from '../src/adapters/zod/index.js'
import { compile } from '../src/engine/compile.js'
import { resolveConfig } from '../src/runtime/config/resolve-config.js'
import { contextOf } from '../src/runtime/context/context.js'
import { guardBody, resolveLimits } from '../src/runtime/guards/index.js'
import { validate } from '../src/runtime/pipeline/validate.js'
import { validQuery, validUser, zodSchemas } from '../test/fixtures/schemas.js'
import { type Comparison, compare, printComparison, writeResults } from './lib.js'

// Question: is the whole validate() middleware (content type, body and query guards, validation,
// writing the outputs back) faster than zod's safeParse alone on the same valid input, and how
// far is it from the engine alone? Fixtures: the "create user" body of test/fixtures/schemas.ts
// (z.email(), .regex(), a nested object, an optional field, an enum) and its coerced query.
// The middleware runs on a plain request object and on a real Express 5 request and response
// (their prototypes' getters, such as Express 5's `req.query`, which parses on every read).

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

// A request and response as Express 5 makes them, body parsed (body-parser marks it read).
const app = express()
const expressReq = Object.setPrototypeOf(new IncomingMessage(new Socket()), app.request)
const expressRes = Object.setPrototypeOf(new ServerResponse(expressReq), app.response)
Object.assign(expressReq, { method: 'POST', url: '/users', headers, _body: true, res: expressRes })
Object.assign(expressRes, { req: expressReq, locals: {} })
contextOf(expressRes).config = resolveConfig({ debug: false })
const callExpress = () => {
  expressReq.body = user
  bodyOnly(expressReq, expressRes, next)
}
callExpress()
if (failures > 0) throw new Error('validate() rejected on an Express request')
const engine = compile(zodAdapter(CreateUser))
const limits = resolveLimits(undefined, undefined)

const results: Comparison[] = []
const body = await compare('create user body, valid input', 'zod safeParse', {
  'zod safeParse': () => CreateUser.safeParse(user),
  'engine alone': () => engine.validate(user, false),
  'body guard alone': () => guardBody(user, limits),
  'validate() middleware': () => call(bodyOnly, noQuery),
  'validate(), Express request': callExpress,
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
const ratio = (c: Comparison, a: string, b: string) => Number((hz(c, a) / hz(c, b)).toFixed(2))
const ratios = {
  body: ratio(body, 'validate() middleware', 'zod safeParse'),
  bodyOnExpress: ratio(body, 'validate(), Express request', 'zod safeParse'),
  engineVsZod: ratio(body, 'engine alone', 'zod safeParse'),
  middlewareVsEngine: ratio(body, 'validate(), Express request', 'engine alone'),
  bodyAndQuery: ratio(both, 'validate() middleware', 'zod safeParse'),
}
process.stdout.write(`\nvalidate() vs zod safeParse (> 1 is faster): ${JSON.stringify(ratios)}\n`)
writeResults('validate', {
  question: 'validate() middleware as a whole vs zod safeParse alone, valid input',
  target: 'ratio > 1',
  ratios,
  results,
})
