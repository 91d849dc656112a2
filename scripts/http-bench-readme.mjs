// `node scripts/http-bench-readme.mjs [results.json] [README.md]`: writes the two tables of the
// README's Performance section (between the `http-bench table` and `http-bench targets` markers)
// from bench/results/http.json, formatted as Biome formats Markdown tables. `npm run bench:http`
// runs it at its end; test/bench/http-results.test.ts keeps README and results in step.
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const input = process.argv[2] ?? join(root, 'bench/results/http.json')
const readme = process.argv[3] ?? join(root, 'README.md')
const { results } = JSON.parse(readFileSync(input, 'utf8'))

/** A Markdown table: the first column left-aligned, the others right-aligned. */
function table(header, rows) {
  const width = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length), 3))
  const cell = (text, i) => (i === 0 ? text.padEnd(width[i]) : text.padStart(width[i]))
  const line = (cells) => `| ${cells.map(cell).join(' | ')} |`
  const rule = `| ${width.map((w, i) => (i === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`
  return [line(header), rule, ...rows.map(line)].join('\n')
}

const x = (ratio) => `${ratio.toFixed(2)}×`
const rowsTable = table(
  ['Row', '× bare, req/s', 'median × bare', 'server CPU µs/request', '× bare, by CPU'],
  results.rows.map((r) => [
    r.label,
    x(r.vsBare),
    x(r.median.vsBare),
    r.cpuMicrosPerRequest.toFixed(0),
    x(r.cpuVsBare),
  ]),
)
const labels = {
  'guarded / bare': 'guarded ≥ 0.95× bare',
  'logged / bare': 'logged ≥ 0.85× bare',
  'router-1000 / router-10': '1,000-route createRouter ≥ 0.97× its 10-route self',
  'query / bare-query': 'coerced-query GET ≥ 0.95× its bare control',
  'guarded / peer': 'faster than express-zod-api (> 1×)',
}
// Three digits: a ratio just under its target (0.949) must not read as the target itself.
const verdict = (ratio, [lo, hi], met) =>
  `${ratio.toFixed(3)}× ${met ? 'met' : 'not met'} (${lo.toFixed(2)}–${hi.toFixed(2)})`
const targetsTable = table(
  [
    'Target',
    'by req/s (90 % interval)',
    'by CPU per request (90 % interval)',
    'medians, req/s · CPU',
  ],
  results.targets.map((t) => [
    labels[t.name] ?? t.name,
    verdict(t.reqPerSec, t.reqPerSecInterval, t.met),
    verdict(t.cpu, t.cpuInterval, t.metByCpu),
    `${t.medianReqPerSec.toFixed(3)}× · ${t.medianCpu.toFixed(3)}×`,
  ]),
)

function between(text, name, body) {
  const start = `<!-- http-bench ${name} start -->`
  const end = `<!-- http-bench ${name} end -->`
  const from = text.indexOf(start)
  const to = text.indexOf(end)
  if (from < 0 || to < from) throw new Error(`${readme} has no ${start} … ${end}`)
  return `${text.slice(0, from)}${start}\n\n${body}\n\n${text.slice(to)}`
}

let text = readFileSync(readme, 'utf8')
text = between(text, 'table', rowsTable)
text = between(text, 'targets', targetsTable)
writeFileSync(readme, text)
process.stdout.write(`wrote the Performance tables of ${readme}\n`)
