import type { ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { startPinnedServer } from './fixtures/pinned-server.js'
import { cases } from './fixtures/router-server.js'
import { writeResults } from './lib.js'

// Question: does the number of routes on a router change what a guarded route costs over HTTP?
// Each case is an app of its own on its own port, all in one fresh server process
// (bench/fixtures/router-server.ts; separate processes differed by up to 30 % for the same app on
// a loaded machine), with shapeguard(), one router and notFoundHandler/errorHandler; the router
// holds 10 or 1,000 routes, the guarded
// route (POST, a zod body with an email, a regex, a nested object, an optional field and an enum,
// res.created) registered last, the others handle() routes with body schemas of their own.
// autocannon loads one app at a time; the server reports its own CPU time, so the figure is
// server CPU per request, which a busy neighbour moves less than throughput. Rounds interleave
// the cases (the order rotates) and every ratio is the median of the ratios within each round.
// Target: createRouter with 1,000 routes >= 0.97x its 10-route self (throughput, i.e. CPU per
// request of 10 routes / of 1,000 routes). The bare express.Router pair is the comparison, and
// "express.Router 1000 plain" (the same 999 paths as plain handlers) answers whether handle()
// routes make the host's linear scan dearer per route than plain routes.

const ROUNDS = Number(process.env.ROUNDS ?? 30)
const SECONDS = 1

type Case = keyof typeof cases

const body = JSON.stringify({
  email: 'ada@example.com',
  sku: 'ABC-1234',
  quantity: 2,
  address: { street: '1 Main St', city: 'London' },
  priority: 'high',
})

async function startServer(children: ChildProcess[]): Promise<Record<Case, string>> {
  const line = await startPinnedServer(
    join(import.meta.dirname, 'fixtures/router-server.ts'),
    [],
    children,
  )
  const bases: Record<string, string> = {}
  for (const pair of line.split(' ')) {
    const [name, port] = pair.split('=')
    bases[name!.replaceAll('_', ' ')] = `http://127.0.0.1:${port}`
  }
  return bases as Record<Case, string>
}

interface Cpu {
  user: number
  system: number
  served: number
}

async function cpu(base: string): Promise<Cpu> {
  return (await fetch(`${base}/__cpu`)).json() as Promise<Cpu>
}

async function load(base: string, seconds: number): Promise<number> {
  const result = await autocannon({
    url: `${base}/items/42/orders`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections: 8,
    duration: seconds,
  })
  return result.non2xx + result.errors
}

/** Server CPU microseconds per request over one load. */
async function cpuPerRequest(base: string): Promise<number> {
  const before = await cpu(base)
  const failed = await load(base, SECONDS)
  const after = await cpu(base)
  if (failed > 0) throw new Error(`${base}: ${failed} answers were not 2xx`)
  return (after.user - before.user + after.system - before.system) / (after.served - before.served)
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

const children: ChildProcess[] = []
try {
  const names = Object.keys(cases) as Case[]
  const bases = await startServer(children)
  for (const name of names) await load(bases[name], 2) // warm-up
  const rounds = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<Case, number[]>
  for (let round = 0; round < ROUNDS; round++) {
    const order = [...names.slice(round % names.length), ...names.slice(0, round % names.length)]
    for (const name of order) rounds[name].push(await cpuPerRequest(bases[name]))
  }
  // Throughput ratios: CPU per request of the first over that of the second, within each round
  // (its cases ran seconds apart), then the median. The 10-route createRouter is the mean of its
  // two equal copies, and how far those two land apart is the noise of the run.
  const c10 = rounds['createRouter 10'].map(
    (x, i) => (x + rounds['createRouter 10 (control)'][i]!) / 2,
  )
  const of = (c: Case | number[]) => (Array.isArray(c) ? c : rounds[c])
  const ratio = (a: Case | number[], b: Case | number[]) =>
    Number(median(of(a).map((x, i) => x / of(b)[i]!)).toFixed(3))
  const perRoute = (more: Case) =>
    rounds[more].map((x, i) => (x - rounds['express.Router 10'][i]!) / 990)
  const ratios = {
    'noise: createRouter 10 (control) / createRouter 10': ratio(
      'createRouter 10',
      'createRouter 10 (control)',
    ),
    'createRouter: 1,000 routes vs 10 (target >= 0.97)': ratio(c10, 'createRouter 1000'),
    'express.Router: 1,000 routes vs 10': ratio('express.Router 10', 'express.Router 1000'),
    'createRouter 1,000 vs express.Router 1,000': ratio('express.Router 1000', 'createRouter 1000'),
    'createRouter 10 vs express.Router 10': ratio('express.Router 10', c10),
    'express.Router scan, µs per handle() route / per plain route': Number(
      median(
        perRoute('express.Router 1000').map(
          (x, i) => x / perRoute('express.Router 1000 plain')[i]!,
        ),
      ).toFixed(3),
    ),
  }
  const us = Object.fromEntries(names.map((n) => [n, Number(median(rounds[n]).toFixed(1))]))
  process.stdout.write('\nserver CPU per guarded request (µs, median of rounds)\n')
  for (const n of names) process.stdout.write(`  ${n.padEnd(28)} ${String(us[n]).padStart(8)} µs\n`)
  process.stdout.write('throughput ratios (median of per-round ratios)\n')
  for (const [name, value] of Object.entries(ratios))
    process.stdout.write(`  ${name.padEnd(64)} ${value.toFixed(3)}x\n`)
  writeResults(`router-http-node${process.versions.node.split('.')[0]}`, {
    rounds: ROUNDS,
    cpuMicrosPerRequest: us,
    ratios,
    perRound: rounds,
  })
} finally {
  for (const child of children) child.kill('SIGTERM')
}
