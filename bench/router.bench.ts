import express5 from 'express'
import express4 from 'express4'
import { createRouter } from '../src/runtime/router/create-router.js'
import { notFoundHandler } from '../src/runtime/router/not-found-handler.js'
import { type Comparison, compare, printComparison, writeResults } from './lib.js'

// Question: does a router's dispatch cost grow with the number of routes? Each case dispatches one
// request in process (no sockets) into a router holding 10 or 1,000 routes, followed by
// notFoundHandler() as in an app: createRouter(), which dispatches through its route table, against
// a bare host Router with the same routes (a linear scan), measured in the same run.
// Target: createRouter's time is the same with 1,000 routes as with 10 for every scenario (a hit on
// the first route, on the last route, and a wrong-method request that ends in a 405), while the
// bare router's grows with the routes it scans; with 10 routes createRouter costs at most a few
// hundred nanoseconds more than the bare router (building the request's list of layers). In the
// wrong-method case both fall through to notFoundHandler, which builds a 404 error after the bare
// router and the 405 error (from the methods createRouter recorded on the request) after
// createRouter. bench/router-http.bench.ts asks the same over HTTP with a guarded route.

type Host = typeof express5
type AnyRouter = (req: object, res: object, done: (err?: unknown) => void) => void

const handler = (_req: unknown, res: { end(): void }) => res.end()

function build(host: Host, kind: 'bare' | 'createRouter', size: number): AnyRouter {
  const router = kind === 'bare' ? host.Router() : createRouter({ Router: host.Router })
  for (let i = 0; i < size; i++) {
    router.get(`/r${i}/:id`, handler)
    router.post(`/r${i}/:id`, handler)
  }
  return router as unknown as AnyRouter
}

const notFound = notFoundHandler() as unknown as (
  req: object,
  res: object,
  next: () => void,
) => void

function dispatch(router: AnyRouter, method: string, url: string): Promise<void> {
  return new Promise((resolve) => {
    const req = { method, url, headers: {} }
    const res = { end: resolve, setHeader() {} }
    router(req, res, () => notFound(req, res, () => resolve()))
  })
}

const scenarios = {
  'first route (hit)': (_size: number) => ['GET', '/r0/1'] as const,
  'last route (hit)': (size: number) => ['GET', `/r${size - 1}/1`] as const,
  'last path, wrong method': (size: number) => ['DELETE', `/r${size - 1}/1`] as const,
}

async function run(hostName: string, host: Host): Promise<Comparison> {
  const cases: Record<string, () => Promise<void>> = {}
  for (const size of [10, 1000]) {
    for (const kind of ['bare', 'createRouter'] as const) {
      const router = build(host, kind, size)
      for (const [scenario, request] of Object.entries(scenarios)) {
        const [method, url] = request(size)
        cases[`${kind} ${size}: ${scenario}`] = () => dispatch(router, method, url)
      }
    }
  }
  return compare(
    `${hostName}: dispatch cost with 10 vs 1,000 routes`,
    'bare 10: first route (hit)',
    cases,
  )
}

function ratios(c: Comparison) {
  const hz = (name: string) => c.cases.find((r) => r.name === name)!.opsPerSec
  const out: Record<string, number> = {}
  for (const scenario of Object.keys(scenarios)) {
    for (const size of [10, 1000]) {
      // > 1 means createRouter is slower than the bare router by that factor.
      out[`createRouter/bare time, ${size} routes, ${scenario}`] = Number(
        (hz(`bare ${size}: ${scenario}`) / hz(`createRouter ${size}: ${scenario}`)).toFixed(3),
      )
    }
  }
  for (const scenario of Object.keys(scenarios)) {
    out[`createRouter ${scenario}, time 1000 routes / 10 routes`] = Number(
      (hz(`createRouter 10: ${scenario}`) / hz(`createRouter 1000: ${scenario}`)).toFixed(3),
    )
  }
  return out
}

const results = []
for (const [name, host] of [
  ['express 5', express5],
  ['express 4', express4],
] as const) {
  const comparison = await run(name, host)
  printComparison(comparison)
  const derived = ratios(comparison)
  for (const [label, value] of Object.entries(derived)) {
    process.stdout.write(`  ${label.padEnd(70)} ${value.toFixed(2)}x\n`)
  }
  results.push({ ...comparison, ratios: derived })
}
writeResults(`router-node${process.versions.node.split('.')[0]}`, results)
