import { Agent } from 'node:http'
import { join } from 'node:path'
import { type ChildServer, startChild } from './fixtures/child-server.js'
import { random } from './fixtures/seeded-random.js'
import {
  abortMidBody,
  abortMidResponse,
  type Outcome,
  send,
  trickle,
} from './fixtures/soak-clients.js'
import { CLIENTS, generator, type SoakRequest } from './fixtures/soak-traffic.js'

// `npm run soak -- --minutes 10` (default 10; fractions allowed; `--dist` loads dist/): a realistic
// shapeguard app (bench/fixtures/soak-server.ts) in a child process under mixed valid, invalid and
// hostile traffic from 100,000 distinct clients (X-Forwarded-For behind a trusted loopback proxy),
// with rate-limited routes, slow clients that trickle their bodies, and clients that leave in the
// middle of a body or of a response. Not part of `npm test`.
// Pass: no answer >= 500 (seen by the clients or counted by the server), the server never exits,
// every valid request gets one of its right answers, no request hangs, mid-response aborts really
// happened, and memory is flat: once the traffic has stopped and two rate-limit windows have
// passed (the drain, 65 s), the live heap after a full GC is within 10 % (or 4 MB) of the live heap
// after the warm-up (the first fifth of the run, at least 60 s: two rate-limit windows, so the
// limiters' stores are full), and RSS within
// 20 % (or 32 MB). Event-loop delay (p50, p99, max) is measured after the warm-up and reported.
// Exits 1 on failure.

const argv = process.argv.slice(2)
const minutesAt = argv.indexOf('--minutes')
const minutes = minutesAt >= 0 ? Number(argv[minutesAt + 1]) : 10
if (!(minutes > 0)) throw new Error('--minutes must be a positive number')
const durationMs = minutes * 60_000
const warmupMs = Math.max(60_000, durationMs / 5)
const HEAP_SLACK = { ratio: 1.1, bytes: 4 * 2 ** 20 }
const RSS_SLACK = { ratio: 1.2, bytes: 32 * 2 ** 20 }
const WORKERS = { normal: 24, slow: 6, aborting: 4 }
// The soak server's rate-limit window is 30 s: two of them and the sweep's slack.
const DRAIN_MS = 65_000
const say = (line: string) => process.stdout.write(`${line}\n`)
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`

interface Stats {
  heapUsed: number
  rss: number
  peakHeap: number
  peakRss: number
  eventLoop: { p50: number; p99: number; max: number; mean: number }
  statuses: Record<string, number>
  errors5xx: number
}

const server: ChildServer = await startChild(
  join(import.meta.dirname, 'fixtures/soak-server.ts'),
  [],
  { nodeArgs: ['--expose-gc'], env: { SHAPEGUARD_FROM: argv.includes('--dist') ? 'dist' : 'src' } },
)
let crashed: string | undefined
let stopping = false
server.child.once('exit', (code, signal) => {
  if (!stopping) crashed = `the server exited (code ${code}, signal ${signal})`
})
const port = server.port
const started = Date.now()
const deadline = started + durationMs
const start = await server.stats<Stats>()

const counts = {
  requests: 0,
  byKind: {} as Record<string, Record<string, number>>,
  serverErrors: 0,
  wrong: [] as string[],
  wrongTotal: 0,
  timeouts: 0,
  socketErrors: 0,
  slow: 0,
  abortedMidBody: 0,
  abortedMidResponse: 0,
  abortAttempts: 0,
}
const seen = new Uint8Array(CLIENTS)

function record(req: SoakRequest, outcome: Outcome): void {
  counts.requests++
  if (req.client >= 0) seen[req.client] = 1
  counts.byKind[req.kind] ??= {}
  const kind = counts.byKind[req.kind]!
  const key = outcome.failure ?? String(outcome.status)
  kind[key] = (kind[key] ?? 0) + 1
  if (outcome.failure === 'timeout') counts.timeouts++
  else if (outcome.failure === 'socket') counts.socketErrors++
  else if (outcome.status >= 500) counts.serverErrors++
  if (outcome.failure === undefined && !req.allowed(outcome.status)) {
    counts.wrongTotal++
    if (counts.wrong.length < 20) {
      counts.wrong.push(`${req.kind} ${req.method} ${req.path.slice(0, 80)} → ${outcome.status}`)
    }
  }
}

const running = () => Date.now() < deadline && crashed === undefined

async function normalWorker(id: number, agent: Agent): Promise<void> {
  const next = generator(1000 + id)
  while (running()) {
    const req = next()
    record(req, await send(port, agent, req))
  }
}

async function slowWorker(id: number): Promise<void> {
  const next = generator(2000 + id)
  const r = random(3000 + id)
  while (running()) {
    let req = next()
    while (req.kind === 'hostile') req = next()
    record(req, await trickle(port, req, 20 + Math.floor(r() * 80)))
    counts.slow++
  }
}

async function abortingWorker(id: number): Promise<void> {
  const next = generator(4000 + id)
  const r = random(5000 + id)
  while (running()) {
    counts.abortAttempts++
    const x = r()
    if (x < 0.5) {
      let req = next()
      while (req.body === undefined) req = next()
      await abortMidBody(port, req, Math.floor(r() * 50))
      counts.abortedMidBody++
    } else if (await abortMidResponse(port, x < 0.75 ? '/api/export' : '/api/stream')) {
      counts.abortedMidResponse++
    }
  }
}

const agent = new Agent({ keepAlive: true, maxSockets: WORKERS.normal })
const workers = [
  ...Array.from({ length: WORKERS.normal }, (_, i) => normalWorker(i, agent)),
  ...Array.from({ length: WORKERS.slow }, (_, i) => slowWorker(i)),
  ...Array.from({ length: WORKERS.aborting }, (_, i) => abortingWorker(i)),
]

let afterWarmup: Stats | undefined
const series: { t: number; heap: number; rss: number; p99: number }[] = []
const progress = (async () => {
  let last = counts.requests
  while (running()) {
    await new Promise((resolve) => setTimeout(resolve, 10_000))
    if (crashed !== undefined) break
    const t = Date.now() - started
    if (afterWarmup === undefined && t >= warmupMs) {
      afterWarmup = await server.stats<Stats>()
      server.child.send({ request: 'resetDelay' })
      say(`warm-up over: live heap ${mb(afterWarmup.heapUsed)}, RSS ${mb(afterWarmup.rss)}`)
      continue
    }
    const s = await server.stats<Stats>()
    series.push({ t, heap: s.heapUsed, rss: s.rss, p99: s.eventLoop.p99 })
    say(
      `${(t / 1000).toFixed(0).padStart(5)} s  ${((counts.requests - last) / 10).toFixed(0).padStart(5)} req/s  live heap ${mb(s.heapUsed)}  RSS ${mb(s.rss)}  loop p99 ${s.eventLoop.p99.toFixed(1)} ms  5xx ${counts.serverErrors + s.errors5xx}`,
    )
    last = counts.requests
  }
})()

await Promise.all(workers)
await progress
agent.destroy()
// Let the server finish what the last aborts left, then read its final figures.
await new Promise((resolve) => setTimeout(resolve, 1000))
const end = crashed === undefined ? await server.stats<Stats>() : undefined
// The drain: no traffic for two rate-limit windows and a little more, so every window has ended
// and been swept. What the live heap holds then that it did not after the warm-up (when windows
// and requests were in flight) is what the traffic left behind: a leak.
if (end !== undefined) {
  say(`traffic over; draining for ${DRAIN_MS / 1000} s (two rate-limit windows)`)
  await new Promise((resolve) => setTimeout(resolve, DRAIN_MS))
}
const drained = crashed === undefined && end !== undefined ? await server.stats<Stats>() : undefined
stopping = true
const code = await server.stop()
if (code !== 0 && crashed === undefined) crashed = `the server exited with code ${code}`

const distinct = seen.reduce((n, x) => n + x, 0)
const failures: string[] = []
if (crashed !== undefined) failures.push(crashed)
if (counts.serverErrors > 0) failures.push(`${counts.serverErrors} answers >= 500 seen by clients`)
const server5xx = Object.entries(end?.statuses ?? {})
  .filter(([s]) => Number(s) >= 500)
  .reduce((n, [, c]) => n + c, 0)
if (server5xx > 0 || (end?.errors5xx ?? 0) > 0) {
  failures.push(`the server answered ${server5xx} times >= 500 (${end?.errors5xx} errors >= 500)`)
}
if (counts.wrongTotal > 0)
  failures.push(`${counts.wrongTotal} wrong answers, e.g. ${counts.wrong.join('; ')}`)
if (counts.timeouts > 0) failures.push(`${counts.timeouts} requests hung (no answer in 30 s)`)
if (counts.abortedMidResponse === 0) failures.push('no client left in the middle of a response')
const base = afterWarmup ?? start
let flat = { heap: false, rss: false }
if (drained !== undefined) {
  flat = {
    heap:
      drained.heapUsed <= base.heapUsed * HEAP_SLACK.ratio ||
      drained.heapUsed - base.heapUsed <= HEAP_SLACK.bytes,
    rss: drained.rss <= base.rss * RSS_SLACK.ratio || drained.rss - base.rss <= RSS_SLACK.bytes,
  }
  if (!flat.heap) {
    failures.push(`live heap grew from ${mb(base.heapUsed)} to ${mb(drained.heapUsed)} (drained)`)
  }
  if (!flat.rss) failures.push(`RSS grew from ${mb(base.rss)} to ${mb(drained.rss)} (drained)`)
} else if (crashed === undefined) {
  failures.push('the server did not answer after the drain')
}

say(
  `\nsoak: ${minutes} min, ${counts.requests} requests (${(counts.requests / (durationMs / 1000)).toFixed(0)} req/s), ${distinct} distinct clients of ${CLIENTS}`,
)
for (const [kind, statuses] of Object.entries(counts.byKind))
  say(`  ${kind.padEnd(8)} ${JSON.stringify(statuses)}`)
say(
  `  slow clients ${counts.slow}, aborted mid-body ${counts.abortedMidBody}, aborted mid-response ${counts.abortedMidResponse} (of ${counts.abortAttempts} aborting clients), socket errors ${counts.socketErrors}`,
)
if (end !== undefined && drained !== undefined) {
  say(`  server answers by status: ${JSON.stringify(end.statuses)}`)
  say(
    `  live heap (after GC): start ${mb(start.heapUsed)}, after warm-up ${mb(base.heapUsed)}, end of traffic ${mb(end.heapUsed)}, drained ${mb(drained.heapUsed)}; peak (no GC) ${mb(Math.max(end.peakHeap, drained.peakHeap))}  → ${flat.heap ? 'flat' : 'NOT flat'} (drained <= 110 % or +4 MB of after warm-up)`,
  )
  say(
    `  RSS: start ${mb(start.rss)}, after warm-up ${mb(base.rss)}, end of traffic ${mb(end.rss)}, drained ${mb(drained.rss)}, peak ${mb(Math.max(end.peakRss, drained.peakRss))}  → ${flat.rss ? 'flat' : 'NOT flat'} (drained <= 120 % or +32 MB)`,
  )
  say(
    `  event-loop delay after warm-up: p50 ${end.eventLoop.p50.toFixed(1)} ms, p99 ${end.eventLoop.p99.toFixed(1)} ms, max ${end.eventLoop.max.toFixed(1)} ms, mean ${end.eventLoop.mean.toFixed(1)} ms`,
  )
  say(`  live heap every 10 s: ${series.map((s) => (s.heap / 2 ** 20).toFixed(1)).join(' ')} MB`)
}
say(failures.length === 0 ? 'PASS' : `FAIL\n  ${failures.join('\n  ')}`)
process.exit(failures.length === 0 ? 0 : 1)
