import type { ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { type RedisServer, redisAvailable, startRedis } from '../test/support/redis-server.js'
import { startPinnedServer } from './fixtures/pinned-server.js'
import { writeResults } from './lib.js'

// Question: what does a per-route rate limit cost a guarded route, in server CPU per request?
// One server process holds variants of a realistic guarded GET (params and query schemas with
// coercion, a regex and a default; a response schema with formats that strips a field): two
// without a limit, one with the default memory store, and one with redisStore() on a local
// redis-server. All are one route, each request choosing its variant by a header, so no variant
// pays for routes registered before it. autocannon loads one variant at a time from this process;
// the server reports its own CPU time, so the figure is CPU per request, which a busy neighbour
// moves less than throughput. Rounds interleave the variants.
// Target: memory / unlimited <= 1.05 (the memory limiter adds at most 5 %).

const ROUNDS = 40
const SECONDS = 1

interface Cpu {
  user: number
  system: number
  served: number
}

async function startServer(redisPort: number, children: ChildProcess[]): Promise<number> {
  const script = join(import.meta.dirname, 'fixtures/rate-limit-server.ts')
  return Number(await startPinnedServer(script, [String(redisPort)], children))
}

async function cpu(base: string): Promise<Cpu> {
  return (await fetch(`${base}/__cpu`)).json() as Promise<Cpu>
}

const PATH = '/users/1?fields=name,email&limit=5'

async function load(base: string, variant: string, seconds: number): Promise<{ non2xx: number }> {
  const result = await autocannon({
    url: `${base}${PATH}`,
    headers: { 'x-variant': variant },
    connections: 8,
    duration: seconds,
  })
  return { non2xx: result.non2xx + result.errors }
}

/** Server CPU microseconds per request over one load of a variant. */
async function cpuPerRequest(base: string, variant: string): Promise<number> {
  const before = await cpu(base)
  const { non2xx } = await load(base, variant, SECONDS)
  const after = await cpu(base)
  if (non2xx > 0) throw new Error(`${variant}: ${non2xx} answers were not 2xx`)
  const served = after.served - before.served
  return (after.user - before.user + after.system - before.system) / served
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

const children: ChildProcess[] = []
let redis: RedisServer | undefined
try {
  if (redisAvailable()) redis = await startRedis()
  else process.stdout.write('redis-server is not installed: the Redis case is left out\n')
  const port = await startServer(redis?.port ?? 0, children)
  const base = `http://127.0.0.1:${port}`
  const routes = ['guarded', 'memory', ...(redis ? ['redis'] : []), 'control']
  for (const name of routes) await load(base, name, 1) // warm-up
  const rounds: Record<string, number[]> = Object.fromEntries(routes.map((r) => [r, []]))
  for (let round = 0; round < ROUNDS; round++) {
    // The order rotates each round: a route's position (the GC debt of the load before it) must
    // not favour one route.
    for (const name of [
      ...routes.slice(round % routes.length),
      ...routes.slice(0, round % routes.length),
    ]) {
      rounds[name]!.push(await cpuPerRequest(base, name))
    }
  }
  const us = Object.fromEntries(routes.map((r) => [r, Number(median(rounds[r]!).toFixed(1))]))
  // Each round's ratio is taken within the round (its routes ran seconds apart), then the median:
  // a neighbour that slows the machine for a while moves both sides of a ratio alike. The
  // baseline of a round is the mean of its two unlimited copies (guarded, control), and how far
  // those two land apart (control / guarded) is the noise of the run.
  const baseline = rounds.guarded!.map((x, i) => (x + rounds.control![i]!) / 2)
  const ratio = (xs: number[], base: number[]) =>
    Number(median(xs.map((x, i) => x / base[i]!)).toFixed(3))
  const ratios: Record<string, number> = {
    'noise: control / guarded': ratio(rounds.control!, rounds.guarded!),
  }
  for (const r of routes.filter((r) => r !== 'guarded' && r !== 'control')) {
    ratios[`${r} / unlimited`] = ratio(rounds[r]!, baseline)
  }
  process.stdout.write('\nserver CPU per request (µs, median of rounds)\n')
  for (const r of routes)
    process.stdout.write(`  ${r.padEnd(10)} ${String(us[r]).padStart(8)} µs\n`)
  process.stdout.write(
    'ratios (median of per-round ratios; unlimited = mean of guarded and control)\n',
  )
  for (const [name, value] of Object.entries(ratios)) {
    process.stdout.write(`  ${name.padEnd(26)} ${value.toFixed(3)}x\n`)
  }
  writeResults(`rate-limit-node${process.versions.node.split('.')[0]}`, {
    cpuMicrosPerRequest: us,
    ratios,
    rounds,
  })
} finally {
  for (const child of children) child.kill('SIGTERM')
  await redis?.stop()
}
