// `node scripts/http-bench-chart.mjs [results.json] [out.svg]`: the bar chart of the README's
// performance section, drawn from bench/results/http.json (written by `npm run bench:http`,
// which runs this script at its end). Two bars per row: its req/s as a ratio to the bare Express 5
// echo, and the same ratio by server CPU per request (bare µs / row µs: the throughput a saturated
// core would give), with the µs beside them; each the least-disturbed quartile of the row's load
// slices (see bench/http.bench.ts). Plain SVG, no dependency.
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const input = process.argv[2] ?? join(root, 'bench/results/http.json')
const output = process.argv[3] ?? join(root, 'docs/images/http-bench.svg')

const { date, node, results } = JSON.parse(readFileSync(input, 'utf8'))
const rows = results.rows
if (!Array.isArray(rows) || rows.length === 0) throw new Error(`${input} has no rows`)

const escapeXml = (s) =>
  String(s).replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c],
  )

const bareCpu = rows.find((r) => r.name === 'bare')?.cpuMicrosPerRequest
if (bareCpu === undefined) throw new Error(`${input} has no bare row`)
const cpuRatio = (row) => row.cpuVsBare ?? bareCpu / row.cpuMicrosPerRequest

const labelWidth = 300
const barArea = 360
const cpuWidth = 130
const rowHeight = 34
const top = 56
const width = labelWidth + barArea + cpuWidth + 20
const height = top + rows.length * rowHeight + 60
const max = Math.max(1.2, ...rows.map((r) => Math.max(r.vsBare, cpuRatio(r)))) * 1.08
const x = (ratio) => labelWidth + (ratio / max) * barArea

const colour = (row) => {
  if (row.name === 'peer') return '#9a6fb0'
  if (row.name.startsWith('bare')) return '#8c8c8c'
  return row.vsBare >= 0.95 ? '#2f8f5b' : '#d0743c'
}

const parts = [
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="13" role="img" aria-labelledby="title">`,
  `<title id="title">Throughput of each scenario as a ratio to the bare Express 5 route: ${escapeXml(rows.map((r) => `${r.label} ${r.vsBare.toFixed(2)}× by req/s, ${r.cpuMicrosPerRequest.toFixed(0)} µs CPU per request`).join('; '))}</title>`,
  `<rect width="100%" height="100%" fill="#ffffff"/>`,
  `<text x="12" y="22" font-size="15" font-weight="600" fill="#222">Throughput as a ratio to the bare Express 5 route (higher is better)</text>`,
  `<text x="12" y="40" fill="#555">${escapeXml(`autocannon, ${results.settings.connections} connections, best quartile of ${results.rows[0].slices} interleaved ${results.settings.sliceSeconds}-s slices per row, ${results.settings.cpus} cores, Node ${node}, ${date.slice(0, 10)}`)}</text>`,
  `<text x="${labelWidth + barArea + 12}" y="${top - 4}" fill="#555">server CPU µs/req</text>`,
]
rows.forEach((row, i) => {
  const y = top + i * rowHeight
  const bar = (ratio, dy, opacity) => [
    `<rect x="${labelWidth}" y="${y + dy}" width="${Math.max(1, x(ratio) - labelWidth).toFixed(1)}" height="12" fill="${colour(row)}" fill-opacity="${opacity}"/>`,
    `<text x="${(x(ratio) + 5).toFixed(1)}" y="${y + dy + 10}" font-size="11" fill="#222">${ratio.toFixed(2)}×</text>`,
  ]
  parts.push(
    `<text x="${labelWidth - 8}" y="${y + 19}" text-anchor="end" fill="#222">${escapeXml(row.label)}</text>`,
    ...bar(row.vsBare, 4, 1),
    ...bar(cpuRatio(row), 17, 0.45),
    `<text x="${labelWidth + barArea + 12}" y="${y + 19}" fill="#222">${row.cpuMicrosPerRequest.toFixed(0)}</text>`,
  )
})
const one = x(1).toFixed(1)
const bottom = top + rows.length * rowHeight
parts.push(
  `<line x1="${one}" y1="${top}" x2="${one}" y2="${bottom}" stroke="#222" stroke-dasharray="4 3"/>`,
  `<text x="${one}" y="${bottom + 16}" text-anchor="middle" fill="#222">1.0× bare</text>`,
  `<text x="12" y="${bottom + 34}" fill="#555">upper bar: by req/s · lower, pale bar: by server CPU per request (bare µs / row µs)</text>`,
  `<text x="12" y="${bottom + 50}" fill="#555">green: shapeguard ≥ 0.95× by req/s · orange: below · grey: bare Express · purple: express-zod-api</text>`,
  `</svg>`,
)
writeFileSync(output, `${parts.join('\n')}\n`)
process.stdout.write(`wrote ${output}\n`)
