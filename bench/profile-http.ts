import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startChild } from './fixtures/child-server.js'
import { expressPackages, type FunctionCost, summarise } from './fixtures/cpu-profile.js'
import { load } from './fixtures/http-load.js'
import { rows, runProbe } from './fixtures/http-rows.js'
import { writeResults } from './lib.js'

// `npm run profile:http [-- rows…] [--seconds N] [--src]`: where a guarded request's time goes.
// Each row (default: bare, guarded and logged, from bench/fixtures/http-rows.ts) runs in a fresh server
// process (production mode, shapeguard from dist/, which the npm script builds first), is warmed
// up under load, then V8's CPU profiler (the one behind `node --cpu-prof`) samples it for N
// seconds (default 10) of autocannon load at 50 connections. Start-up stays out of the profile.
// Prints self time by owner (shapeguard, each Express package, zod, ajv's generated code, pino,
// node, GC) and the top functions, and what each row pays over the first row named (the bare
// echo by default; `bare-query query` compares the query row with its control), writes bench/results/profile-http-node<N>.json (N: the Node line), and leaves the
// .cpuprofile files (open them in Chrome DevTools or speedscope) in a temporary folder it names.
// `--baseline DIR` (an absolute path to another build's dist/) serves a row named `guarded@before`
// from that build, so `guarded@before guarded` says what a change added to a request, function by
// function (chunk names differ between builds: functions are matched by name).

const argv = process.argv.slice(2)
const secondsAt = argv.indexOf('--seconds')
const seconds = secondsAt >= 0 ? Number(argv[secondsAt + 1]) : 10
const from = argv.includes('--src') ? 'src' : 'dist'
const baselineAt = argv.indexOf('--baseline')
const given = baselineAt >= 0 ? argv[baselineAt + 1] : undefined
// Absolute, without a trailing slash: the server loads a build from an absolute path only, and
// the profile's owners are told apart by that path.
const baseDist = given === undefined ? undefined : resolve(given)
if (baselineAt >= 0 && (baseDist === undefined || !existsSync(join(baseDist, 'index.js')))) {
  throw new Error(`--baseline takes the path of a built dist/ (no index.js in ${given})`)
}
const valued = new Set(['--seconds', '--baseline'])
const named = argv.filter((a, i) => !a.startsWith('--') && !valued.has(argv[i - 1]!))
const twin = '@before'
const chosen = named.length > 0 ? named : ['bare', 'guarded', 'logged']
const dir = mkdtempSync(join(tmpdir(), 'shapeguard-profile-'))
const say = (line: string) => process.stdout.write(`${line}\n`)

const isExpress = (f: FunctionCost) => expressPackages.has(f.owner)
// The server's CPU µs per request over the profiled window (process.cpuUsage, profiler included):
// a share of the busy samples times this is about what that share costs a request.
let perRequest = 0
const us = (pct: number) => (pct / 100) * perRequest
const line = (f: FunctionCost) =>
  `  ${f.selfPct.toFixed(2).padStart(6)} % ${us(f.selfPct).toFixed(1).padStart(6)} µs ${f.totalPct.toFixed(1).padStart(5)} %  ${f.name.slice(0, 36).padEnd(36)} ${f.owner.padEnd(14)} ${f.where}`

// µs per request of each owner and function (self time), to compare a row with the bare echo.
interface Micros {
  total: number
  owners: Map<string, number>
  functions: Map<string, number>
}
let baseline: Micros | undefined
function microsOf(functions: FunctionCost[], owners: { owner: string; selfPct: number }[]): Micros {
  return {
    total: perRequest,
    owners: new Map(owners.map((o) => [o.owner, us(o.selfPct)])),
    functions: functions.reduce((sums, f) => {
      // Between builds a function is known by its name alone: its chunk's name changes.
      const key = `${f.name} (${f.owner})${baseDist === undefined ? ` ${f.where}` : ''}`
      return sums.set(key, (sums.get(key) ?? 0) + us(f.selfPct))
    }, new Map<string, number>()),
  }
}
function difference(row: Micros, base: Micros) {
  const diff = (a: Map<string, number>, b: Map<string, number>) =>
    [...new Set([...a.keys(), ...b.keys()])]
      .map((k) => [k, (a.get(k) ?? 0) - (b.get(k) ?? 0)] as const)
      .sort((x, y) => y[1] - x[1])
  return { owners: diff(row.owners, base.owners), functions: diff(row.functions, base.functions) }
}

const results = []
for (const name of chosen) {
  const before = name.endsWith(twin)
  if (before && baseDist === undefined) throw new Error(`${name} needs --baseline DIR`)
  const rowName = before ? name.slice(0, -twin.length) : name
  const row = rows.find((r) => r.name === rowName)
  if (row === undefined) throw new Error(`no row ${name}; rows: ${rows.map((r) => r.name)}`)
  const server = await startChild(join(import.meta.dirname, 'fixtures/http-server.ts'), [rowName], {
    env: { SHAPEGUARD_FROM: before ? baseDist! : from, PROFILE_DIR: dir, PROFILE_NAME: name },
  })
  let path: string
  let requests = 0
  try {
    for (const probe of row.probes) {
      const wrong = await runProbe(`http://127.0.0.1:${server.port}`, probe)
      if (wrong !== undefined) throw new Error(`row ${name} answers wrong: ${wrong}`)
    }
    const options = { connections: 50, expectStatus: row.probes[0]!.status }
    await load(server, row.load, { ...options, seconds: 3 })
    await server.cpuStart()
    await server.profileStart()
    const loaded = await load(server, row.load, { ...options, seconds })
    path = await server.profileStop()
    const cpu = await server.cpuStop()
    if (loaded.wrong > 0) throw new Error(`${loaded.wrong} wrong answers under load`)
    requests = loaded.requests
    perRequest = cpu.micros / Math.max(1, cpu.requests)
    say(`\n== ${name}: ${row.label} — ${Math.round(loaded.reqPerSec)} req/s while profiled`)
  } finally {
    await server.stop()
  }
  const summary = summarise(path, baseDist === undefined ? [] : [baseDist])
  say(
    `profile: ${path} (${summary.busySamples} busy samples, idle ${summary.idlePct} %; ${perRequest.toFixed(1)} µs server CPU per request, profiler included)`,
  )
  const expressPct = summary.owners
    .filter((o) => expressPackages.has(o.owner))
    .reduce((sum, o) => sum + o.selfPct, 0)
  say(
    `self time by owner (% of busy samples); Express and its packages together: ${expressPct.toFixed(1)} %`,
  )
  for (const o of summary.owners.slice(0, 16)) {
    say(`  ${o.selfPct.toFixed(2).padStart(6)} %  ${o.owner}`)
  }
  const header =
    '    self    total  function                                 owner            where'
  const shapeguard = summary.functions.filter((f) => f.owner === 'shapeguard')
  say(`top shapeguard functions by self time\n${header}`)
  for (const f of shapeguard.slice(0, 15)) say(line(f))
  say(`top shapeguard functions by total time (self + callees)\n${header}`)
  for (const f of [...shapeguard].sort((a, b) => b.totalPct - a.totalPct).slice(0, 12)) say(line(f))
  say(`top Express functions by self time\n${header}`)
  for (const f of summary.functions.filter(isExpress).slice(0, 12)) say(line(f))
  say(`top functions overall by self time\n${header}`)
  for (const f of summary.functions.slice(0, 20)) say(line(f))
  const micros = microsOf(summary.functions, summary.owners)
  const extra = baseline === undefined ? undefined : difference(micros, baseline)
  if (extra !== undefined) {
    say(
      `what this row pays over ${chosen[0]}, µs of CPU per request (${perRequest.toFixed(0)} - ${baseline!.total.toFixed(0)})`,
    )
    say('  by owner:')
    for (const [owner, d] of extra.owners.slice(0, 12))
      say(`    ${d >= 0 ? '+' : ''}${d.toFixed(1).padStart(6)} µs  ${owner}`)
    say('  by function (self time):')
    for (const [fn, d] of extra.functions.slice(0, 25))
      say(`    ${d >= 0 ? '+' : ''}${d.toFixed(1).padStart(6)} µs  ${fn}`)
  }
  if (name === chosen[0]) baseline = micros
  results.push({
    row: name,
    label: row.label,
    profile: path,
    busySamples: summary.busySamples,
    idlePct: summary.idlePct,
    requests,
    cpuMicrosPerRequest: Number(perRequest.toFixed(1)),
    expressSelfPct: Number(expressPct.toFixed(2)),
    owners: summary.owners
      .slice(0, 20)
      .map((o) => ({ ...o, microsPerRequest: Number(us(o.selfPct).toFixed(2)) })),
    shapeguardBySelf: shapeguard.slice(0, 20),
    shapeguardByTotal: [...shapeguard].sort((a, b) => b.totalPct - a.totalPct).slice(0, 20),
    expressBySelf: summary.functions.filter(isExpress).slice(0, 20),
    overallBySelf: summary.functions.slice(0, 30),
  })
}
writeResults(`profile-http-node${process.versions.node.split('.')[0]}`, { seconds, from, results })
say(
  `\nprofiles in ${dir}; summary in bench/results/profile-http-node${process.versions.node.split('.')[0]}.json`,
)
