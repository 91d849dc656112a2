import express from 'express'
import * as z from 'zod'
import { configureLogger, errorHandler, handle, shapeguard } from '../src/index.js'
import { fuzzRoutes } from '../src/testing/index.js'
import { writeResults } from './lib.js'

// Question: how long does the boundaries phase alone (`phases: ['boundaries']`) take, end to end
// (discovery, the OpenAPI document, building every edge, sending each request and checking its
// answer), on a realistic 50-route app? Target: under 30 s on the 2-core machine. Ten resources,
// five routes each (list with a query, read, create, update, delete), their schemas with formats,
// regexes, nesting, optional fields, enums, unions and arrays. The median of 3 rounds.

configureLogger({ silent: true })
const ROUNDS = 3
const RESOURCES = [
  'users',
  'orders',
  'products',
  'invoices',
  'teams',
  'projects',
  'tickets',
  'comments',
  'payments',
  'shipments',
]

const Address = z.object({
  street: z.string().min(1).max(120),
  city: z.string().min(1).max(60),
  zip: z.string().regex(/^\d{5}$/),
  country: z.enum(['DE', 'FR', 'GB', 'US', 'JP']),
})
const Contact = z.union([
  z.object({ kind: z.literal('email'), email: z.email() }),
  z.object({ kind: z.literal('phone'), phone: z.string().regex(/^\+\d{8,14}$/) }),
])
const Body = z.object({
  name: z.string().min(2).max(80),
  slug: z.string().regex(/^[a-z0-9-]{3,40}$/),
  status: z.enum(['draft', 'active', 'archived']),
  priority: z.number().int().min(1).max(5),
  price: z.number().min(0).max(100_000).multipleOf(0.01).optional(),
  owner: z.uuid(),
  website: z.url().optional(),
  due: z.iso.datetime().optional(),
  address: Address.optional(),
  contact: Contact,
  tags: z.array(z.string().min(1).max(20)).max(10),
  notes: z.string().max(2000).optional(),
})
const Query = z.object({
  page: z.coerce.number().int().min(1).max(1000).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  sort: z.enum(['name', 'created', 'priority']).optional(),
  q: z.string().max(100).optional(),
})
const Params = z.object({ id: z.uuid() })

function app() {
  const a = express()
  a.use(shapeguard())
  a.use(express.json())
  for (const r of RESOURCES) {
    const ok = (_req: unknown, res: { ok(o: object): void }) => res.ok({ data: null })
    a.get(`/${r}`, ...handle({ query: Query }, ok))
    a.get(`/${r}/:id`, ...handle({ params: Params }, ok))
    a.post(`/${r}`, ...handle({ body: Body }, ok))
    a.patch(`/${r}/:id`, ...handle({ params: Params, body: Body.partial() }, ok))
    a.delete(`/${r}/:id`, ...handle({ params: Params }, ok))
  }
  a.use(errorHandler())
  return a
}

const rounds: { ms: number; requests: number; routes: number }[] = []
for (let i = 0; i < ROUNDS; i++) {
  const started = performance.now()
  const report = await fuzzRoutes(app(), { phases: ['boundaries'], seed: i + 1 })
  rounds.push({
    ms: Math.round(performance.now() - started),
    requests: report.requests,
    routes: report.routes.length,
  })
  if (report.failures.length > 0) throw new Error('the benchmark app broke an invariant')
}
const sorted = [...rounds].sort((a, b) => a.ms - b.ms)
const median = sorted[Math.floor(ROUNDS / 2)]!
const results = {
  question: 'boundaries phase of a 50-route zod app, end to end',
  targetMs: 30_000,
  medianMs: median.ms,
  met: median.ms < 30_000,
  routes: median.routes,
  requests: median.requests,
  msPerRequest: +(median.ms / median.requests).toFixed(3),
  rounds,
}
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`)
writeResults(`fuzz-boundaries-node${process.versions.node.split('.')[0]}`, results)
