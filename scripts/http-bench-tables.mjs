// `node scripts/http-bench-tables.mjs [--page docs/performance.md] [http-node22.json ...]`: writes
// the tables of the performance guide from the per-line results of `npm run bench:http`
// (bench/results/http-node<MAJOR>.json, every one there is unless files are named): between the
// `http-bench table` markers each row's server CPU per request, as a ratio to bare and in µs, on
// every Node.js line side by side, and its req/s ratio; between the `http-bench targets` markers
// each line's targets. Formatted as Biome formats Markdown tables. bench/http-lines.ts runs it at
// its end; test/bench/http-results.test.ts keeps the guide and results in step.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { readRuns, root } from './http-bench-results.mjs'

const args = process.argv.slice(2)
const pageAt = args.indexOf('--page')
const page = pageAt < 0 ? join(root, 'docs/performance.md') : args[pageAt + 1]
if (page === undefined) throw new Error('--page takes a file')
const named = args.filter((_, i) => i !== pageAt && i !== pageAt + 1)

const runs = readRuns(named)

/** A Markdown table; `align`: a letter a column, `l` left (the default) or `r` right. */
function table(header, rows, align) {
  const width = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length), 3))
  const left = (i) => align[i] !== 'r'
  const cell = (text, i) => (left(i) ? text.padEnd(width[i]) : text.padStart(width[i]))
  const line = (cells) => `| ${cells.map(cell).join(' | ')} |`
  const rule = `| ${width.map((w, i) => (left(i) ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`
  return [line(header), rule, ...rows.map(line)].join('\n')
}

/** Prose wrapped at 100 columns, as the guide's; `indent` starts every line after the first. */
function wrap(text, indent = '') {
  const lines = ['']
  for (const word of text.split(' ')) {
    const last = lines.at(-1)
    if (last.trim() !== '' && last.length + 1 + word.length > 100) lines.push(`${indent}${word}`)
    else lines[lines.length - 1] = last === '' ? word : `${last} ${word}`
  }
  return lines.join('\n')
}
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`

const x = (ratio) => `${ratio.toFixed(2)}×`
const nodeName = (run) => `Node ${run.version}${run.settings.short ? ', short run' : ''}`

// (a) Rows × lines. Every row of any line, in the order of the first line that has it.
const rows = []
for (const run of runs) {
  for (const row of run.rows) if (!rows.some((r) => r.name === row.name)) rows.push(row)
}
const rowOf = (run, name) => run.rows.find((r) => r.name === name)
const rowsTable = table(
  ['Row', ...runs.map(nodeName), `× bare by req/s, ${runs.map((r) => r.line).join(' · ')}`],
  rows.map((row) => [
    row.label,
    ...runs.map((run) => {
      const r = rowOf(run, row.name)
      return r === undefined ? '–' : `${x(r.cpuVsBare)} · ${r.cpuMicrosPerRequest.toFixed(0)} µs`
    }),
    runs.map((run) => (rowOf(run, row.name) ? x(rowOf(run, row.name).vsBare) : '–')).join(' · '),
  ]),
  `l${'r'.repeat(runs.length + 1)}`,
)
const slices = (s) =>
  `${plural(s.repetitions * s.cyclesPerRepetition, 'one-second slice')} per row (${plural(s.repetitions, 'repetition')} × ${plural(s.cyclesPerRepetition, 'cycle')}, ${s.warmupSeconds} s warm-up)`
const runNotes = runs.map((run) =>
  wrap(
    `- Node ${run.version}: ${run.date.slice(0, 10)}, ${slices(run.settings)}, ${run.settings.connections} connections, shapeguard from \`${run.settings.from}/\`, ${run.settings.cpus} cores${run.settings.pinned ? ' (pinned)' : ''}, load average ${run.settings.loadavgAtStart[0]} at the start${run.settings.short ? '; **a short development run, not a recorded one**' : ''}.`,
    '  ',
  ),
)
const rowsSection = [
  wrap(
    "Each cell: the row's server CPU per request as a ratio to the bare route's on the same line (bare µs / row µs; higher is better) · the row's server CPU µs per request. The last column: the ratio by req/s, line by line.",
  ),
  rowsTable,
  runNotes.join('\n'),
].join('\n\n')

// (b) Targets: each target on each line, judged by server CPU per request.
const labels = {
  'guarded / bare': 'guarded / bare Express',
  'logged / bare': 'logged / bare Express',
  'router-1000 / router-10': '1,000-route createRouter / 10-route',
  'query / bare-query': 'coerced-query GET / its bare control',
  'guarded / peer': 'guarded / express-zod-api',
}
const goal = (t) =>
  `${t.above ? '>' : '≥'} ${x(t.min)}${t.floor === undefined ? '' : ` (floor ${x(t.floor)})`}`
// Three digits: a ratio just under its target (0.949) must not read as the target itself.
const ratio = (r, [lo, hi]) => `${r.toFixed(3)}× (${lo.toFixed(2)}–${hi.toFixed(2)})`
const names = []
for (const run of runs) for (const t of run.targets) if (!names.includes(t.name)) names.push(t.name)
const targetsTable = table(
  [
    'Target',
    'Node',
    'goal',
    'by CPU per request (90 % interval)',
    'met, by CPU',
    'by req/s (90 % interval)',
  ],
  names.flatMap((name) =>
    runs
      .flatMap((run) => run.targets.filter((t) => t.name === name).map((t) => ({ run, t })))
      .map(({ run, t }, i) => [
        i === 0 ? (labels[name] ?? name) : '',
        `${run.version}${run.settings.short ? ', short run' : ''}`,
        goal(t),
        ratio(t.cpu, t.cpuInterval),
        t.byCpu,
        ratio(t.reqPerSec, t.reqPerSecInterval),
      ]),
  ),
  'lllrlr',
)

function between(text, name, body) {
  const start = `<!-- http-bench ${name} start -->`
  const end = `<!-- http-bench ${name} end -->`
  const from = text.indexOf(start)
  const to = text.indexOf(end)
  if (from < 0 || to < from) throw new Error(`${page} has no ${start} … ${end}`)
  return `${text.slice(0, from)}${start}\n\n${body}\n\n${text.slice(to)}`
}

let text = readFileSync(page, 'utf8')
text = between(text, 'table', rowsSection)
text = between(text, 'targets', targetsTable)
writeFileSync(page, text)
process.stdout.write(`wrote the Performance tables of ${page}\n`)
