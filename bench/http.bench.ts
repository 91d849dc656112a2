import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { type ChildServer, startChild } from './fixtures/child-server.js'
import { type LoadResult, load, measure } from './fixtures/http-load.js'
import { type Row, rows, runProbe } from './fixtures/http-rows.js'
import { hasTaskset } from './fixtures/pinned-server.js'
import { quantile, ratioInterval } from './fixtures/slice-stats.js'
import { writeResults } from './lib.js'

// Question: over HTTP, how fast is a guarded route next to the bare Express 5 route that sends the
// same envelope, and next to express-zod-api, its closest peer?
// `npm run bench:http` (builds dist/ first), `-- --quick` for a short smoke run, `-- --src` to
// measure src/ through tsx instead of dist/. Each repetition starts a fresh server process for
// every row (bench/fixtures/http-rows.ts; NODE_ENV=production, 127.0.0.1, stdout to /dev/null),
// checks its probes (status and body) and warms it up; then, in cycles, every row is loaded for one
// short slice (autocannon, 50 connections, from this process) in an order rotated each cycle, so
// the rows share the machine's good and bad seconds. Where taskset works the servers run on the
// last core and this process on the first.
// On this shared 2-core machine the same server's req/s moves by up to a third from one second to
// the next, and a neighbour slows a slice down far more often than anything speeds one up. So a
// row's figure is its least-disturbed quartile over all its slices (bench/fixtures/slice-stats.ts):
// the upper quartile of req/s and the lower quartile of the server's own CPU µs per request
// (process.cpuUsage in the server). That quartile also leaves out a cost that comes in bursts (an
// old-generation GC every few seconds), so the medians are reported beside it. Each ratio comes
// with a 90 % bootstrap interval that resamples the server processes, then their slices: processes
// of the same code differ more than slices of one process, so repetitions are many and short.
// Targets (issue 19): guarded >= 0.95x bare; logged >= 0.85x; 1,000-route createRouter >= 0.97x
// its 10-route self; coerced-query GET >= 0.95x its bare control; faster than express-zod-api.

const argv = process.argv.slice(2)
const quick = argv.includes('--quick')
const from = argv.includes('--src') ? 'src' : 'dist'
let pinned = cpus().length > 1 && hasTaskset()
const settings = {
  connections: 50,
  repetitions: quick ? 1 : 6,
  cyclesPerRepetition: quick ? 2 : 6,
  sliceSeconds: 1,
  // autocannon stops on its one-second sample tick: whole seconds.
  warmupSeconds: quick ? 1 : 2,
  from,
  cpus: cpus().length,
  pinned,
  loadavgAtStart: loadavg().map((x) => Number(x.toFixed(2))),
}
const server = join(import.meta.dirname, 'fixtures/http-server.ts')
const root = join(import.meta.dirname, '..')
if (from === 'dist' && !existsSync(join(root, 'dist/index.js'))) {
  throw new Error('dist/ is not built: run `npm run bench:http` (it builds first) or pass --src')
}
const env = { SHAPEGUARD_FROM: from }
const say = (line: string) => process.stdout.write(`${line}\n`)

// Every thread of a process (`-a`) onto one core; threads started later inherit it. A core this
// process may not use (a container's CPU set) leaves everything unpinned, as settings.pinned says.
const pin = (pid: number | undefined, core: number) => {
  if (!pinned || pid === undefined) return
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(core), String(pid)], { stdio: 'ignore' })
  } catch {
    pinned = false
  }
}
pin(process.pid, 0)

async function startRow(row: Row): Promise<ChildServer> {
  const s = await startChild(server, [row.name], { env })
  try {
    pin(s.child.pid, cpus().length - 1)
    for (const probe of row.probes) {
      const wrong = await runProbe(`http://127.0.0.1:${s.port}`, probe)
      if (wrong !== undefined) throw new Error(`row ${row.name} answers wrong: ${wrong}`)
    }
    return s
  } catch (error) {
    await s.stop()
    throw error
  }
}

say(`http bench: ${rows.length} rows, shapeguard from ${from}/, ${JSON.stringify(settings)}`)
// Each row's slices, by repetition (server process).
const slices: Record<string, LoadResult[][]> = Object.fromEntries(rows.map((r) => [r.name, []]))
const began = Date.now()
for (let rep = 0; rep < settings.repetitions; rep++) {
  const servers = new Map<string, ChildServer>()
  for (const row of rows) slices[row.name]!.push([])
  try {
    // Every row answers right, or nothing is measured.
    for (const row of rows) servers.set(row.name, await startRow(row))
    for (const row of rows) {
      const warm = await load(servers.get(row.name)!, row.load, {
        seconds: settings.warmupSeconds,
        connections: settings.connections,
        expectStatus: row.probes[0]!.status,
      })
      if (warm.wrong > 0) throw new Error(`row ${row.name}: ${warm.wrong} wrong answers warming up`)
    }
    for (let cycle = 0; cycle < settings.cyclesPerRepetition; cycle++) {
      const shift = (rep * settings.cyclesPerRepetition + cycle) % rows.length
      const order = [...rows.slice(shift), ...rows.slice(0, shift)]
      const line: string[] = []
      for (const row of order) {
        const result = await measure(servers.get(row.name)!, row.load, {
          warmupSeconds: 0,
          seconds: settings.sliceSeconds,
          connections: settings.connections,
          expectStatus: row.probes[0]!.status,
        }).catch((error: Error) => {
          throw new Error(`row ${row.name}: ${error.message}`)
        })
        slices[row.name]!.at(-1)!.push(result)
        line.push(`${row.name} ${result.reqPerSec.toFixed(0)}`)
      }
      say(`  rep ${rep + 1} cycle ${String(cycle + 1).padStart(2)}: ${line.join(', ')} req/s`)
    }
    const { polyfillCalls } = await servers.get('peer')!.stats<{ polyfillCalls: number }>()
    if (polyfillCalls > 0) throw new Error('peer requests called the Node 22 polyfill')
  } finally {
    await Promise.all([...servers.values()].map((s) => s.stop()))
  }
}

const round = (x: number, digits = 3) => Number(x.toFixed(digits))
const groups = (name: string, of: (r: LoadResult) => number) =>
  slices[name]!.map((process) => process.map(of))
const reqGroups = (name: string) => groups(name, (r) => r.reqPerSec)
const cpuGroups = (name: string) => groups(name, (r) => r.cpuMicrosPerRequest)
const reqs = (name: string) => reqGroups(name).flat()
const cpuOf = (name: string) => cpuGroups(name).flat()
// The least-disturbed quartile: fast slices for req/s, cheap slices for CPU per request.
const bestRps = (xs: readonly number[]) => quantile(xs, 0.75)
const bestCpu = (xs: readonly number[]) => quantile(xs, 0.25)
const median = (xs: readonly number[]) => quantile(xs, 0.5)
const rps = (name: string) => bestRps(reqs(name))
const cpu = (name: string) => bestCpu(cpuOf(name))
const table = rows.map((row) => ({
  name: row.name,
  label: row.label,
  slices: reqs(row.name).length,
  reqPerSec: Math.round(rps(row.name)),
  vsBare: round(rps(row.name) / rps('bare')),
  cpuMicrosPerRequest: round(cpu(row.name), 1),
  // The same ratio by CPU: the throughput a saturated core would give (bare µs / row µs).
  cpuVsBare: round(cpu('bare') / cpu(row.name)),
  cpuMicrosOverBare: round(cpu(row.name) - cpu('bare'), 1),
  median: {
    reqPerSec: Math.round(median(reqs(row.name))),
    vsBare: round(median(reqs(row.name)) / median(reqs('bare'))),
    cpuMicrosPerRequest: round(median(cpuOf(row.name)), 1),
  },
}))
const interval = (pair: [number, number]) => pair.map((x) => round(x)) as [number, number]
const pair = (a: string, b: string) => ({
  reqPerSec: round(rps(a) / rps(b)),
  reqPerSecInterval: interval(ratioInterval(reqGroups(a), reqGroups(b), bestRps)),
  // > 1: `a` spends less server CPU per request than `b`.
  cpu: round(cpu(b) / cpu(a)),
  cpuInterval: interval(ratioInterval(cpuGroups(b), cpuGroups(a), bestCpu)),
  medianReqPerSec: round(median(reqs(a)) / median(reqs(b))),
  medianCpu: round(median(cpuOf(b)) / median(cpuOf(a))),
})
const ratios = {
  'guarded / bare': pair('guarded', 'bare'),
  'logged / bare': pair('logged', 'bare'),
  'rate-limited / guarded': pair('rate-limited', 'guarded'),
  'router-1000 / router-10': pair('router-1000', 'router-10'),
  'router-1000 / bare-router-1000': pair('router-1000', 'bare-router-1000'),
  'bare-router-1000 / bare': pair('bare-router-1000', 'bare'),
  'query / bare-query': pair('query', 'bare-query'),
  'guarded / peer': pair('guarded', 'peer'),
}
const targets = [
  ['guarded / bare', 0.95],
  ['logged / bare', 0.85],
  ['router-1000 / router-10', 0.97],
  ['query / bare-query', 0.95],
  ['guarded / peer', 1],
] as const
const verdicts = targets.map(([name, target]) => ({
  name,
  target,
  reqPerSec: ratios[name].reqPerSec,
  reqPerSecInterval: ratios[name].reqPerSecInterval,
  cpu: ratios[name].cpu,
  cpuInterval: ratios[name].cpuInterval,
  medianReqPerSec: ratios[name].medianReqPerSec,
  medianCpu: ratios[name].medianCpu,
  met: ratios[name].reqPerSec >= target,
  metByCpu: ratios[name].cpu >= target,
}))

say(
  '\n| Row | req/s (upper quartile) | × bare | median × bare | server CPU µs/req (lower quartile) | × bare by CPU |\n|---|--:|--:|--:|--:|--:|',
)
for (const r of table) {
  say(
    `| ${r.label} | ${r.reqPerSec} | ${r.vsBare.toFixed(2)}× | ${r.median.vsBare.toFixed(2)}× | ${r.cpuMicrosPerRequest.toFixed(1)} | ${r.cpuVsBare.toFixed(2)}× |`,
  )
}
const span = ([lo, hi]: readonly number[]) => `[${lo!.toFixed(3)}, ${hi!.toFixed(3)}]`
say('\nratios (req/s; CPU as b/a, > 1 = less CPU per request; 90 % intervals)')
for (const [name, v] of Object.entries(ratios)) {
  say(
    `  ${name.padEnd(32)} ${v.reqPerSec.toFixed(3)}x ${span(v.reqPerSecInterval)}  cpu ${v.cpu.toFixed(3)}x ${span(v.cpuInterval)}  medians ${v.medianReqPerSec.toFixed(3)}x, cpu ${v.medianCpu.toFixed(3)}x`,
  )
}
say('targets')
for (const v of verdicts) {
  say(
    `  ${v.name.padEnd(32)} target >= ${v.target}: req/s ${v.reqPerSec.toFixed(3)}x ${span(v.reqPerSecInterval)} ${v.met ? 'met' : 'NOT met'}, CPU ${v.cpu.toFixed(3)}x ${v.metByCpu ? 'met' : 'NOT met'}`,
  )
}
say(`measured in ${((Date.now() - began) / 1000).toFixed(0)} s`)

if (quick) {
  say('--quick: a smoke run; bench/results/http.json and the chart are left as they were')
} else {
  writeResults('http', { settings, rows: table, ratios, targets: verdicts })
  const chart = spawnSync(process.execPath, [join(root, 'scripts/http-bench-chart.mjs')], {
    stdio: 'inherit',
  })
  if (chart.status !== 0) throw new Error('scripts/http-bench-chart.mjs failed')
  const tables = spawnSync(process.execPath, [join(root, 'scripts/http-bench-readme.mjs')], {
    stdio: 'inherit',
  })
  if (tables.status !== 0) throw new Error('scripts/http-bench-readme.mjs failed')
  say('README: the Performance tables are rewritten; update the spread of runs in its prose')
}
