import { configureLogger } from 'shapeguard'
import { fuzzRoutes } from 'shapeguard/testing'
import { createApp } from '../examples/demo/app.js'
import { demoOpenAPI } from '../examples/demo/openapi.js'
import { listen } from '../src/testing/fuzz/send-request.js'
import { writeResults } from './lib.js'

// Question: how long does fuzzRoutes take per 1,000 generated requests on the demo app, next to
// sending 1,000 fixed requests to the same app over the same kind of listener (the HTTP round
// trip and the app's own work, no generation, no checks)? Each figure is the median of 3 rounds.
// The demo's /slow route (250 ms by design) is left out of both.

configureLogger({ silent: true })
const undocumented = {
  'GET /users/:id': [404],
  'POST /users': [409],
  'DELETE /users/:id': [204, 403],
  'POST /checkout': [202, 400, 410],
}
const ROUNDS = 3
const REQUESTS = 1000

async function fuzzed(seed: number): Promise<number> {
  const app = createApp()
  const started = performance.now()
  const report = await fuzzRoutes(app, {
    runs: Math.ceil(REQUESTS / 6),
    seed,
    routes: (r) => r.path !== '/slow',
    openapi: demoOpenAPI(app),
    statuses: undocumented,
  })
  return ((performance.now() - started) * REQUESTS) / report.requests
}

async function plain(): Promise<number> {
  const listener = await listen(createApp() as never)
  const started = performance.now()
  for (let i = 0; i < REQUESTS; i++) {
    if (i % 2 === 0) await listener.send('GET', '/users?page=1', {})
    else
      await listener.send(
        'POST',
        '/checkout',
        { 'content-type': 'application/json' },
        '{"coupon":""}',
      )
  }
  const ms = performance.now() - started
  await listener.close()
  return ms
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!
const fuzz: number[] = []
const base: number[] = []
for (let round = 0; round < ROUNDS; round++) {
  base.push(await plain())
  fuzz.push(await fuzzed(round + 1))
}
const result = {
  question: 'fuzzRoutes on the demo app: milliseconds per 1,000 generated requests',
  baseline: '1,000 fixed requests to the same app over the same listener',
  msPer1000Fuzzed: Math.round(median(fuzz)),
  msPer1000Fixed: Math.round(median(base)),
  vsBaseline: Number((median(fuzz) / median(base)).toFixed(2)),
}
process.stdout.write(
  `\n${result.question}\n  fuzzed ${result.msPer1000Fuzzed} ms, fixed ${result.msPer1000Fixed} ms (${result.vsBaseline}x)\n`,
)
writeResults(`fuzz-node${process.versions.node.split('.')[0]}`, [result])
