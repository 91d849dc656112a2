import { request } from 'node:http'
import { join } from 'node:path'
import { startChild } from './fixtures/child-server.js'
import { writeResults } from './lib.js'

// Question: how many events a second does a stream route send through `res.sse()` (and
// `res.ndjson()`), each event validated and stripped by its schema, next to a hand-written loop of
// `res.write` and `JSON.stringify` that validates nothing? Issue 46's target: ≥ 0.8× on every
// supported line. `npm run bench -- sse` on this line; on another:
// `PATH="$(scripts/node-line.sh 24):$PATH" npx tsx bench/sse.bench.ts`. `--quick` writes nothing.
// The server runs in a child process (bench/fixtures/sse-server.ts, NODE_ENV=production, shapeguard
// from dist/); this process reads each stream as fast as it comes, counting bytes. Every row
// streams N events per request; the rows take turns in an order rotated each repetition, so they
// share the machine's good and bad seconds. A row's figure is its median over the repetitions:
// events per second by wall time (request to last byte), and the server's CPU µs per event.
// The hand-written rows call `res.write` in a synchronous loop and wait only for `drain`;
// `sse-raw-await` also awaits once per event, as a loop over a model's or a cursor's async
// iterator does (and as a handler awaiting `send` does): the cost of that await, shown apart.

const quick = process.argv.includes('--quick')
const EVENTS = quick ? 2_000 : 20_000
const REPS = quick ? 3 : 15
const rows = ['sse-raw', 'sse-raw-await', 'sse', 'ndjson-raw', 'ndjson'] as const
type RowName = (typeof rows)[number]

function read(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let bytes = 0
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length
      })
      res.on('end', () =>
        res.statusCode === 200 ? resolve(bytes) : reject(new Error(`${path}: ${res.statusCode}`)),
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

const server = await startChild(join(import.meta.dirname, 'fixtures/sse-server.ts'), [], {
  env: { SHAPEGUARD_FROM: 'dist' },
})
const samples = Object.fromEntries(
  rows.map((r) => [r, { perSec: [] as number[], cpu: [] as number[], bytes: 0 }]),
) as Record<RowName, { perSec: number[]; cpu: number[]; bytes: number }>
try {
  // Warm-up: every row, until the JIT has seen the paths.
  for (let i = 0; i < 3; i++) for (const row of rows) await read(server.port, `/${row}?n=${EVENTS}`)
  for (let rep = 0; rep < REPS; rep++) {
    for (let k = 0; k < rows.length; k++) {
      const row = rows[(rep + k) % rows.length]!
      await server.cpuStart()
      const t0 = performance.now()
      const bytes = await read(server.port, `/${row}?n=${EVENTS}`)
      const ms = performance.now() - t0
      const cpu = await server.cpuStop()
      samples[row].perSec.push((EVENTS / ms) * 1000)
      samples[row].cpu.push(cpu.micros / EVENTS)
      samples[row].bytes = bytes
    }
  }
} finally {
  await server.stop()
}

const figure = (row: RowName) => ({
  row,
  eventsPerSec: Math.round(median(samples[row].perSec)),
  cpuMicrosPerEvent: Number(median(samples[row].cpu).toFixed(3)),
  bytes: samples[row].bytes,
})
const results = rows.map(figure)
const ratio = (a: RowName, b: RowName, target?: number) => {
  const x = figure(a)
  const y = figure(b)
  return {
    row: a,
    baseline: b,
    eventsPerSec: Number((x.eventsPerSec / y.eventsPerSec).toFixed(3)),
    // Inverted, so that > 1 is faster here too: the baseline's CPU per event over the row's.
    cpuPerEvent: Number((y.cpuMicrosPerEvent / x.cpuMicrosPerEvent).toFixed(3)),
    ...(target === undefined ? {} : { target }),
  }
}
const ratios = [
  ratio('sse', 'sse-raw', 0.8),
  ratio('ndjson', 'ndjson-raw', 0.8),
  ratio('sse', 'sse-raw-await'),
]
process.stdout.write(`\n${EVENTS} events a request, ${REPS} repetitions, Node ${process.version}\n`)
for (const r of results)
  process.stdout.write(
    `  ${r.row.padEnd(12)} ${String(r.eventsPerSec).padStart(9)} events/s  ${r.cpuMicrosPerEvent.toFixed(3).padStart(7)} µs CPU/event  ${r.bytes} bytes\n`,
  )
for (const r of ratios)
  process.stdout.write(
    `  ${r.row} / ${r.baseline}: ${r.eventsPerSec.toFixed(2)}× events/s, ${r.cpuPerEvent.toFixed(2)}× by server CPU${r.target === undefined ? '' : ` (target ≥ ${r.target}× events/s)${r.eventsPerSec >= r.target ? '' : '  NOT MET'}`}\n`,
  )
if (!quick)
  writeResults(`sse-node${process.versions.node.split('.')[0]}`, {
    settings: { events: EVENTS, repetitions: REPS },
    rows: results,
    ratios,
  })
