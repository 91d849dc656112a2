import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { type ChildServer, startChild } from './fixtures/child-server.js'
import { type LoadResult, load, measure } from './fixtures/http-load.js'
import {
  rows as allRows,
  judge,
  type RatioName,
  type Row,
  runProbe,
  targetsFor,
} from './fixtures/http-rows.js'
import { hasTaskset } from './fixtures/pinned-server.js'
import { quantile, ratioInterval } from './fixtures/slice-stats.js'
import { writeResults } from './lib.js'

// Question: over HTTP, how fast is a guarded route next to the bare Express 5 route that sends the
// same envelope, and next to express-zod-api, its closest peer, on the Node.js line this runs on?
// `npm run bench:http` runs this once per supported line (bench/http-lines.ts, after building
// dist/); alone: `PATH="$(scripts/node-line.sh 24):$PATH" npx tsx bench/http.bench.ts`. Options:
// `--quick` a short smoke run that writes nothing; `--src` measures src/ through tsx instead of
// dist/; `--reps N`, `--cycles N`, `--warmup S` a shorter (or longer) run than the recorded 6, 6
// and 2 s, whose results say `short: true` in their settings when shorter; `--baseline DIR` adds
// a twin of each shapeguard row (`guarded@before`...) served from another build's dist/ (a copy
// of dist/ made before a change), so a change is measured before and after in one run; the
// twins and their ratios go to bench/results/http-node<MAJOR>-baseline.json.
// Each repetition starts a fresh server process for every row (bench/fixtures/http-rows.ts;
// NODE_ENV=production, 127.0.0.1, stdout to /dev/null) on this process's Node, checks its probes
// (status and body) and warms it up; then, in cycles, every row is loaded for one short slice
// (autocannon, 50 connections, from this process) in an order rotated each cycle, so the rows
// share the machine's good and bad seconds. Where taskset works the servers run on the last core
// and this process on the first.
// On this shared 2-core machine the same server's req/s moves by up to a third from one second to
// the next, and a neighbour slows a slice down far more often than anything speeds one up. So a
// row's figure is its least-disturbed quartile over all its slices (bench/fixtures/slice-stats.ts):
// the upper quartile of req/s and the lower quartile of the server's own CPU µs per request
// (process.cpuUsage in the server). That quartile also leaves out a cost that comes in bursts (an
// old-generation GC every few seconds), so the medians are reported beside it. Each ratio comes
// with a 90 % bootstrap interval that resamples the server processes, then their slices: processes
// of the same code differ more than slices of one process, so repetitions are many and short.
// Targets, by server CPU per request, per line: targetsFor() in bench/fixtures/http-rows.ts.
// Writes bench/results/http-node<MAJOR>.json; bench/http-lines.ts then draws the chart and
// the README tables from every line's file.

const line = Number(process.versions.node.split('.')[0])
const targets = targetsFor(line)
const argv = process.argv.slice(2)
const quick = argv.includes('--quick')
const from = argv.includes('--src') ? 'src' : 'dist'
// `--name N` (or `--name=N`): a positive whole number.
const count = (name: string, fallback: number): number => {
  const at = argv.findIndex((a) => a === name || a.startsWith(`${name}=`))
  if (at < 0) return fallback
  const text = argv[at]!.includes('=') ? argv[at]!.split('=')[1] : argv[at + 1]
  const value = Number(text)
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} takes a whole number ≥ 1`)
  return value
}
// `--baseline DIR` (or `--baseline=DIR`): an absolute path to another build's dist/.
const baselineAt = argv.findIndex((a) => a === '--baseline' || a.startsWith('--baseline='))
const baseline =
  baselineAt < 0
    ? undefined
    : argv[baselineAt]!.includes('=')
      ? argv[baselineAt]!.slice('--baseline='.length)
      : argv[baselineAt + 1]
if (baseline !== undefined && !existsSync(join(baseline, 'index.js'))) {
  throw new Error(`--baseline takes an absolute path to a built dist/ (no index.js in ${baseline})`)
}
// `--rows a,b` (or `--rows=a,b`): only these rows (and their twins), for a quick A/B of one row;
// such a run writes nothing.
const rowsAt = argv.findIndex((a) => a === '--rows' || a.startsWith('--rows='))
const only =
  rowsAt < 0
    ? undefined
    : (argv[rowsAt]!.includes('=') ? argv[rowsAt]!.slice('--rows='.length) : argv[rowsAt + 1])!
        .split(',')
        .map((r) => r.trim())
const valued = new Set([baselineAt, rowsAt].filter((i) => i >= 0).map((i) => i + 1))
const known = /^--(quick|src|reps|cycles|warmup|baseline|rows)(=|$)|^\d+$/
const unknown = argv.filter(
  (a, i) => !known.test(a) && !(valued.has(i) && !argv[i - 1]!.includes('=')),
)
if (unknown.length > 0) throw new Error(`http.bench.ts: unknown argument ${unknown.join(' ')}`)
let pinned = cpus().length > 1 && hasTaskset()
const full = { repetitions: 6, cyclesPerRepetition: 6, warmupSeconds: 2 }
const settings = {
  connections: 50,
  repetitions: count('--reps', quick ? 1 : full.repetitions),
  cyclesPerRepetition: count('--cycles', quick ? 2 : full.cyclesPerRepetition),
  sliceSeconds: 1,
  // autocannon stops on its one-second sample tick: whole seconds.
  warmupSeconds: count('--warmup', quick ? 1 : full.warmupSeconds),
  // Fewer repetitions, cycles or warm-up seconds than a recorded run: a development run.
  short: false,
  from,
  cpus: cpus().length,
  pinned,
  loadavgAtStart: loadavg().map((x) => Number(x.toFixed(2))),
}
settings.short =
  settings.repetitions < full.repetitions ||
  settings.cyclesPerRepetition < full.cyclesPerRepetition ||
  settings.warmupSeconds < full.warmupSeconds
const server = join(import.meta.dirname, 'fixtures/http-server.ts')
const root = join(import.meta.dirname, '..')
if (from === 'dist' && !existsSync(join(root, 'dist/index.js'))) {
  throw new Error('dist/ is not built: run `npm run bench:http` (it builds first) or pass --src')
}
const env = { SHAPEGUARD_FROM: from }
// The rows measured: every row of http-rows.ts, and with --baseline a twin of each shapeguard row.
const twinned = ['guarded', 'secured', 'logged', 'rate-limited', 'router-1000', 'query', 'upload']
const before = (name: string) => `${name}@before`
const chosen = only === undefined ? allRows : allRows.filter((r) => only.includes(r.name))
if (only !== undefined && chosen.length !== only.length) {
  throw new Error(`--rows names rows of http-rows.ts: ${allRows.map((r) => r.name).join(', ')}`)
}
const rows: readonly Row[] =
  baseline === undefined
    ? chosen
    : [
        ...chosen,
        ...chosen
          .filter((r) => twinned.includes(r.name))
          .map((r) => ({ ...r, name: before(r.name), label: `${r.label} (before)` })),
      ]
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
  const twin = row.name.endsWith('@before')
  const name = twin ? row.name.slice(0, -'@before'.length) : row.name
  const s = await startChild(server, [name], {
    env: twin ? { SHAPEGUARD_FROM: baseline! } : env,
  })
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

say(
  `http bench on Node ${process.version}: ${rows.length} rows, shapeguard from ${from}/, ${JSON.stringify(settings)}`,
)
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
if (only !== undefined) {
  // A chosen few rows: their figures and, with --baseline, after / before; nothing is written.
  for (const row of rows) {
    say(
      `  ${row.name.padEnd(24)} ${Math.round(rps(row.name))} req/s, ${cpu(row.name).toFixed(1)} µs CPU/req`,
    )
  }
  for (const name of baseline === undefined ? [] : twinned.filter((n) => only.includes(n))) {
    const a = bestCpu(cpuOf(name))
    const b = bestCpu(cpuOf(before(name)))
    const interval = ratioInterval(cpuGroups(before(name)), cpuGroups(name), bestCpu)
    say(
      `  ${name} / ${before(name)}: cpu ${(b / a).toFixed(3)}x [${interval.map((x) => x.toFixed(3)).join(', ')}]`,
    )
  }
  process.exit(0)
}
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
const ratios: Record<RatioName, ReturnType<typeof pair>> = {
  'guarded / bare': pair('guarded', 'bare'),
  'logged / bare': pair('logged', 'bare'),
  'rate-limited / guarded': pair('rate-limited', 'guarded'),
  'timed / guarded': pair('timed', 'guarded'),
  'secured / guarded': pair('secured', 'guarded'),
  'router-1000 / router-10': pair('router-1000', 'router-10'),
  'router-1000 / bare-router-1000': pair('router-1000', 'bare-router-1000'),
  'bare-router-1000 / bare': pair('bare-router-1000', 'bare'),
  'query / bare-query': pair('query', 'bare-query'),
  'upload / multer-upload': pair('upload', 'multer-upload'),
  'guarded / peer': pair('guarded', 'peer'),
  // The cost of @opentelemetry/api without an SDK; shapeguard's share of a traced request.
  'otel-api / guarded': pair('otel-api', 'guarded'),
  'traced / traced-bare': pair('traced', 'traced-bare'),
}
const verdicts = targets.map((target) => {
  const r = ratios[target.name]
  return {
    ...target,
    cpu: r.cpu,
    cpuInterval: r.cpuInterval,
    // The verdict: by server CPU per request.
    byCpu: judge(target, r.cpu),
    reqPerSec: r.reqPerSec,
    reqPerSecInterval: r.reqPerSecInterval,
    byReqPerSec: judge(target, r.reqPerSec),
    medianCpu: r.medianCpu,
    medianReqPerSec: r.medianReqPerSec,
  }
})

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
if (baseline !== undefined) {
  say(`\nafter / before (${baseline}): > 1 = the change spends less server CPU per request`)
  for (const name of twinned) {
    const v = pair(name, before(name))
    say(
      `  ${`${name} / ${before(name)}`.padEnd(40)} cpu ${v.cpu.toFixed(3)}x ${span(v.cpuInterval)}  req/s ${v.reqPerSec.toFixed(3)}x ${span(v.reqPerSecInterval)}`,
    )
  }
}
say(`targets on Node ${line} (by server CPU per request)`)
const goal = (t: (typeof targets)[number]) =>
  `${t.above ? '>' : '>='} ${t.min}${t.floor === undefined ? '' : ` (at least ${t.floor})`}`
for (const v of verdicts) {
  say(
    `  ${v.name.padEnd(32)} ${goal(v).padEnd(21)} CPU ${v.cpu.toFixed(3)}x ${span(v.cpuInterval)} ${v.byCpu}; req/s ${v.reqPerSec.toFixed(3)}x ${span(v.reqPerSecInterval)} ${v.byReqPerSec}`,
  )
}
// Wall time of the measuring (start-ups, probes, warm-ups and slices), kept in the results file:
// docs quote it per Node line.
const measuredSeconds = Math.round((Date.now() - began) / 1000)
say(`measured in ${measuredSeconds} s`)

const file = `http-node${line}`
if (quick) {
  say(`--quick: a smoke run; bench/results/${file}.json is left as it was`)
} else {
  // The recorded file holds this build's rows only; the twins go to a file of their own.
  const own = table.filter((r) => !r.name.endsWith('@before'))
  writeResults(file, { settings, measuredSeconds, rows: own, ratios, targets: verdicts })
  say(`wrote bench/results/${file}.json${settings.short ? ' (a short run: settings.short)' : ''}`)
  if (baseline !== undefined) {
    const vsBefore = Object.fromEntries(
      twinned.map((n) => [`${n} / ${before(n)}`, pair(n, before(n))]),
    )
    writeResults(`${file}-baseline`, { settings, baseline, rows: table, vsBefore })
    say(`wrote bench/results/${file}-baseline.json (after / before)`)
  }
}
