import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import express, { type RequestHandler } from 'express'
import * as z from 'zod'
import { configureLogger, handle, shapeguard } from '../src/index.js'
import { sendJson } from '../src/runtime/response/send-json.js'
import { type Comparison, compare, printComparison, writeResults } from './lib.js'

// Question: does a guarded route's answer (res.ok through a response schema) cost less in
// Express than the same envelope through res.json? Each case runs a whole Express 5 app in
// process on a request and response with no socket (the bytes stay in the response's buffer),
// so the figure is the app's own work: routing, the helper, stripping, serialising, headers, end.
//   - 'res.json (bare)': a plain handler sending the already-stripped envelope with res.json;
//   - 'res.ok, before': the guarded route as it sent before (strip, envelope, res.json);
//   - 'res.ok, now': the guarded route (compiled writer, headers written directly);
//   - 'sendJson (bare)': the plain handler's envelope through shapeguard's send path alone.

configureLogger({ silent: true })

const User = z.object({
  id: z.string(),
  email: z.email(),
  name: z.string().min(1).max(100),
  role: z.enum(['admin', 'editor', 'viewer']),
  age: z.int().min(0).optional(),
  verified: z.boolean(),
  address: z.object({ street: z.string(), zip: z.string(), city: z.string() }).nullable(),
  tags: z.array(z.string()),
})
const user = {
  id: 'u_1',
  email: 'user1@example.com',
  name: 'Ada Lovelace',
  role: 'editor' as const,
  age: 36,
  verified: true,
  address: { street: '1 Main St', zip: '12345', city: 'Springfield' },
  tags: ['a', 'b'],
  passwordHash: '$2b$10$abcdefghijklmnopqrstuv',
}
const { passwordHash: _, ...stripped } = user

// As the logger or an app's wrapper would: an own res.json sends through Express's res.json.
const viaResJson: RequestHandler = (_req, res, next) => {
  res.json = res.json.bind(res)
  next()
}

function appWith(etag: boolean | 'weak') {
  const app = express()
  app.set('etag', etag)
  app.use(shapeguard({ debug: false, requestId: { enabled: false } }))
  const route = () => handle({ response: User }, (_req, res) => res.ok({ data: user }))
  app.get('/bare', (_req, res) => {
    res.json({ success: true, message: '', data: stripped })
  })
  app.get('/bare-send', (_req, res) => {
    sendJson(res, JSON.stringify({ success: true, message: '', data: stripped }))
  })
  app.get('/before', viaResJson, ...route())
  app.get('/now', ...route())
  return app
}

const socket = new Socket()
function run(app: ReturnType<typeof express>, url: string): ServerResponse {
  const req = new IncomingMessage(socket)
  req.method = 'GET'
  req.url = url
  req.headers = { host: 'x', accept: 'application/json' }
  const res = new ServerResponse(req)
  app(req as never, res as never)
  return res
}

const results: Comparison[] = []
const ratios: Record<string, Record<string, number>> = {}
for (const etag of ['weak', false] as const) {
  const app = appWith(etag)
  for (const url of ['/bare', '/bare-send', '/before', '/now']) {
    const res = run(app, url)
    if (!res.writableEnded || res.statusCode !== 200) throw new Error(`${url} did not answer`)
  }
  const c = await compare(
    `one user, etag ${etag}`,
    'res.json (bare)',
    {
      'res.json (bare)': () => run(app, '/bare'),
      'res.ok, before': () => run(app, '/before'),
      'res.ok, now': () => run(app, '/now'),
      'sendJson (bare)': () => run(app, '/bare-send'),
    },
    // A whole app per call allocates much: five rounds keep one slow collection from counting.
    { rounds: 5 },
  )
  printComparison(c)
  results.push(c)
  const hz = (n: string) => c.cases.find((x) => x.name === n)!.opsPerSec
  ratios[`etag ${etag}`] = {
    nowVsBefore: Number((hz('res.ok, now') / hz('res.ok, before')).toFixed(3)),
    nowVsBare: Number((hz('res.ok, now') / hz('res.json (bare)')).toFixed(3)),
    sendVsResJson: Number((hz('sendJson (bare)') / hz('res.json (bare)')).toFixed(3)),
  }
}
process.stdout.write(`\nres.ok now vs before and vs a bare res.json: ${JSON.stringify(ratios)}\n`)
writeResults(`send-node${process.versions.node.split('.')[0]}`, {
  question:
    "a guarded route's res.ok (writer + direct send) vs the same through res.json, in process",
  target: 'nowVsBefore > 1, sendVsResJson ≥ 1, nowVsBare ≥ 1',
  ratios,
  results,
})
