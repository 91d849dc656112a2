import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { type ChildServer, startChild } from './fixtures/child-server.js'
import { type LoadResult, measure, median } from './fixtures/http-load.js'
import { type Row, rows, runProbe } from './fixtures/http-rows.js'
import { writeResults } from './lib.js'

// Question: over HTTP, how fast is a guarded route next to the bare Express 5 route that sends the
// same envelope, and next to express-zod-api, its closest peer?
// `npm run bench:http` (builds dist/ first), `-- --quick` for a short smoke run, `-- --src` to
// measure src/ through tsx instead of dist/. Every row (bench/fixtures/http-rows.ts) runs in a
// fresh server process per repetition (NODE_ENV=production, 127.0.0.1, stdout to /dev/null),
// loaded by autocannon from this process (50 connections) after a warm-up; repetitions interleave
// the rows, in an order rotated each time. A row's figure is its median req/s over the
// repetitions, as a ratio to the bare echo's median, and the server's own CPU time per request
// (process.cpuUsage in the server), which a busy neighbour on a 2-core machine moves less.
// Before anything is measured, every row's server must answer its probes (status and body).
// Targets (issue 19): guarded >= 0.95x bare; logged >= 0.85x; 1,000-route createRouter >= 0.97x
// its 10-route self; coerced-query GET >= 0.95x its bare control; faster than express-zod-api.

const argv = process.argv.slice(2)
const quick = argv.includes('--quick')
const from = argv.includes('--src') ? 'src' : 'dist'
const settings = {
  connections: 50,
  // Many short repetitions rather than a few long ones: the median then shrugs off a neighbour's
  // burst on a shared machine, which can halve one run's req/s.
  repetitions: quick ? 1 : 5,
  warmupSeconds: quick ? 1 : 1.5,
  seconds: quick ? 2 : 3,
  from,
  cpus: cpus().length,
  loadavgAtStart: loadavg().map((x) => Number(x.toFixed(2))),
}
const server = join(import.meta.dirname, 'fixtures/http-server.ts')
const root = join(import.meta.dirname, '..')
if (from === 'dist' && !existsSync(join(root, 'dist/index.js'))) {
  throw new Error('dist/ is not built: run `npm run bench:http` (it builds first) or pass --src')
}
const env = { SHAPEGUARD_FROM: from }
const start = (row: Row): Promise<ChildServer> => startChild(server, [row.name], { env })
const say = (line: string) => process.stdout.write(`${line}\n`)

// Every row answers right, or nothing is measured.
say(`http bench: ${rows.length} rows, shapeguard from ${from}/, ${JSON.stringify(settings)}`)
for (const row of rows) {
  const s = await start(row)
  try {
    for (const probe of row.probes) {
      const wrong = await runProbe(`http://127.0.0.1:${s.port}`, probe)
      if (wrong !== undefined) throw new Error(`row ${row.name} answers wrong: ${wrong}`)
    }
  } finally {
    await s.stop()
  }
}
say(`every row answered its ${rows.reduce((n, r) => n + r.probes.length, 0)} probes right`)

const runs: Record<string, LoadResult[]> = Object.fromEntries(rows.map((r) => [r.name, []]))
const began = Date.now()
for (let rep = 0; rep < settings.repetitions; rep++) {
  const order = [...rows.slice(rep % rows.length), ...rows.slice(0, rep % rows.length)]
  for (const row of order) {
    const s = await start(row)
    try {
      const result = await measure(s, row.load, {
        warmupSeconds: settings.warmupSeconds,
        seconds: settings.seconds,
        connections: settings.connections,
        expectStatus: row.probes[0]!.status,
      })
      if (row.name === 'peer') {
        const { polyfillCalls } = await s.stats<{ polyfillCalls: number }>()
        if (polyfillCalls > 0) throw new Error(`peer requests called the Node 22 polyfill`)
      }
      runs[row.name]!.push(result)
      say(
        `  rep ${rep + 1} ${row.name.padEnd(17)} ${result.reqPerSec.toFixed(0).padStart(7)} req/s ${result.cpuMicrosPerRequest.toFixed(1).padStart(7)} µs CPU/req`,
      )
    } catch (error) {
      throw new Error(`row ${row.name}: ${(error as Error).message}`)
    } finally {
      await s.stop()
    }
  }
}

const rps = (name: string) => median(runs[name]!.map((r) => r.reqPerSec))
const cpu = (name: string) => median(runs[name]!.map((r) => r.cpuMicrosPerRequest))
const round = (x: number, digits = 3) => Number(x.toFixed(digits))
const bare = rps('bare')
const table = rows.map((row) => ({
  name: row.name,
  label: row.label,
  reqPerSec: Math.round(rps(row.name)),
  vsBare: round(rps(row.name) / bare),
  cpuMicrosPerRequest: round(cpu(row.name), 1),
  // The same ratio by CPU: the throughput a saturated core would give (bare µs / row µs).
  cpuVsBare: round(cpu('bare') / cpu(row.name)),
  cpuMicrosOverBare: round(cpu(row.name) - cpu('bare'), 1),
  runs: runs[row.name]!.map((r) => ({
    reqPerSec: Math.round(r.reqPerSec),
    cpuMicrosPerRequest: round(r.cpuMicrosPerRequest, 1),
  })),
}))
const pair = (a: string, b: string) => ({
  reqPerSec: round(rps(a) / rps(b)),
  // > 1: `a` spends less server CPU per request than `b`.
  cpu: round(cpu(b) / cpu(a)),
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
  cpu: ratios[name].cpu,
  met: ratios[name].reqPerSec >= target,
  metByCpu: ratios[name].cpu >= target,
}))

say(
  `\n| Row | req/s (median) | × bare | server CPU µs/req | × bare by CPU |\n|---|--:|--:|--:|--:|`,
)
for (const r of table) {
  say(
    `| ${r.label} | ${r.reqPerSec} | ${r.vsBare.toFixed(2)}× | ${r.cpuMicrosPerRequest.toFixed(1)} | ${r.cpuVsBare.toFixed(2)}× |`,
  )
}
say('\nratios (req/s; CPU as b/a, > 1 = less CPU per request)')
for (const [name, value] of Object.entries(ratios)) {
  say(`  ${name.padEnd(32)} ${value.reqPerSec.toFixed(3)}x   cpu ${value.cpu.toFixed(3)}x`)
}
say('targets')
for (const v of verdicts) {
  say(
    `  ${v.name.padEnd(32)} target >= ${v.target}: req/s ${v.reqPerSec.toFixed(3)}x ${v.met ? 'met' : 'NOT met'}, CPU ${v.cpu.toFixed(3)}x ${v.metByCpu ? 'met' : 'NOT met'}`,
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
