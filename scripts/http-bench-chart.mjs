// `node scripts/http-bench-chart.mjs [--out chart.svg] [http-node22.json ...]`: the bar chart of
// the README's Performance section (docs/images/http-bench.svg), drawn from the per-line results
// of `npm run bench:http` (bench/results/http-node<MAJOR>.json, every one there is unless files
// are named; bench/http-lines.ts runs this script at its end). For each row, one bar per Node.js
// line, side by side: the row's server CPU per request as a ratio to the bare Express 5 route on
// the same line (bare µs / row µs: the throughput a saturated core would give), the µs beside it;
// each the least-disturbed (lower) quartile of the row's load slices (see bench/http.bench.ts).
// Plain SVG, no dependency; the same files give the same bytes.
import { writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { readRuns, root } from './http-bench-results.mjs'

const args = process.argv.slice(2)
const outAt = args.indexOf('--out')
const output = outAt < 0 ? join(root, 'docs/images/http-bench.svg') : args[outAt + 1]
if (output === undefined) throw new Error('--out takes a file')
const named = args.filter((_, i) => i !== outAt && i !== outAt + 1)

const runs = readRuns(named)

// Every row of any line, in the order of the first line that has it.
const rows = []
for (const run of runs) {
  for (const row of run.rows) if (!rows.some((r) => r.name === row.name)) rows.push(row)
}
const rowOf = (run, name) => run.rows.find((r) => r.name === name)
for (const run of runs) {
  if (rowOf(run, 'bare') === undefined) throw new Error(`${run.file} has no bare row`)
}
const cpuRatio = (run, row) =>
  row.cpuVsBare ?? rowOf(run, 'bare').cpuMicrosPerRequest / row.cpuMicrosPerRequest

const escapeXml = (s) =>
  String(s).replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c],
  )
// One colour a line, in the order of the lines (colour-blind-safe, Okabe–Ito).
const palette = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00']
const colour = (i) => palette[i % palette.length]

const labelWidth = 290
const barArea = 420
const valueWidth = 140
const barHeight = 12
const barGap = 3
const groupPad = 10
const width = labelWidth + barArea + valueWidth + 20
const legendTop = 58
const legendRow = 18
const top = legendTop + runs.length * legendRow + 14
const groupHeight = groupPad * 2 + runs.length * barHeight + (runs.length - 1) * barGap
const bottom = top + rows.length * groupHeight
const height = bottom + 50
const ratios = runs.flatMap((run) => run.rows.map((row) => cpuRatio(run, row)))
const max = Math.max(1.2, ...ratios) * 1.04
const x = (ratio) => labelWidth + (ratio / max) * barArea

const slicesOf = ({ repetitions, cyclesPerRepetition }) =>
  `${repetitions * cyclesPerRepetition} one-second slices per row (${repetitions} × ${cyclesPerRepetition})`
const legendText = (run) =>
  [
    `Node ${run.node.replace(/^v/, '')}`,
    run.date.slice(0, 10),
    slicesOf(run.settings),
    `${run.settings.connections} connections`,
    `${run.settings.from}/`,
    `${run.settings.cpus} cores${run.settings.pinned ? ', pinned' : ''}`,
  ].join(' · ')
const value = (run, row) =>
  `${cpuRatio(run, row).toFixed(2)}× · ${row.cpuMicrosPerRequest.toFixed(0)} µs`

const parts = [
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="13" role="img" aria-labelledby="title">`,
  `<title id="title">${escapeXml(`Server CPU per request of each scenario as a ratio to the bare Express 5 route, on ${runs.map((r) => `Node ${r.node}`).join(', ')}: ${rows.map((row) => `${row.label} ${runs.map((run) => (rowOf(run, row.name) ? `${value(run, rowOf(run, row.name))} on Node ${run.line}` : `not run on Node ${run.line}`)).join(', ')}`).join('; ')}`)}</title>`,
  `<rect width="100%" height="100%" fill="#ffffff"/>`,
  `<text x="12" y="22" font-size="15" font-weight="600" fill="#222">Server CPU per request as a ratio to bare Express 5, by Node.js line (higher is better)</text>`,
  `<text x="12" y="40" fill="#555">bare µs / row µs on the same line, each the lower quartile of the row's interleaved load slices; the row's µs beside it</text>`,
]
runs.forEach((run, i) => {
  const y = legendTop + i * legendRow
  parts.push(
    `<rect x="12" y="${y}" width="14" height="12" fill="${colour(i)}"/>`,
    `<text x="32" y="${y + 10}" font-size="12" fill="#222">${escapeXml(legendText(run))}${run.settings.short ? ' · <tspan fill="#b00020" font-weight="600">short development run</tspan>' : ''}</text>`,
  )
})
// Bands and bars first, then the 1.0× line over them, then the values, haloed, over the line.
const values = []
rows.forEach((row, g) => {
  const y = top + g * groupHeight
  if (g % 2 === 1) {
    parts.push(`<rect x="0" y="${y}" width="${width}" height="${groupHeight}" fill="#f4f5f7"/>`)
  }
  parts.push(
    `<text x="${labelWidth - 10}" y="${y + groupHeight / 2 + 4}" text-anchor="end" fill="#222">${escapeXml(row.label)}</text>`,
  )
  runs.forEach((run, i) => {
    const by = y + groupPad + i * (barHeight + barGap)
    const of = rowOf(run, row.name)
    if (of === undefined) {
      values.push(
        `<text x="${labelWidth + 4}" y="${by + 10}" font-size="11" fill="#888">not run on Node ${run.line}</text>`,
      )
      return
    }
    const end = x(cpuRatio(run, of))
    parts.push(
      `<rect x="${labelWidth}" y="${by}" width="${Math.max(1, end - labelWidth).toFixed(1)}" height="${barHeight}" fill="${colour(i)}"/>`,
    )
    values.push(
      `<text x="${(end + 5).toFixed(1)}" y="${by + 10}" font-size="11" fill="#222" stroke="#fff" stroke-width="3" paint-order="stroke">${escapeXml(value(run, of))}</text>`,
    )
  })
})
const one = x(1).toFixed(1)
parts.push(
  `<line x1="${one}" y1="${top}" x2="${one}" y2="${bottom}" stroke="#222" stroke-dasharray="4 3"/>`,
  ...values,
  `<text x="${one}" y="${bottom + 16}" text-anchor="middle" fill="#222">1.0× bare</text>`,
  `<text x="12" y="${bottom + 38}" fill="#555">${escapeXml(`bench/results/${runs.map((r) => basename(r.file)).join(', ')} · npm run bench:http`)}</text>`,
  `</svg>`,
)
writeFileSync(output, `${parts.join('\n')}\n`)
process.stdout.write(`wrote ${output}\n`)
