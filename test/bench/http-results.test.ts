import { execFileSync } from 'node:child_process'
import {
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ownerOf, summarise } from '../../bench/fixtures/cpu-profile.js'
import { judge, rows, type Target, targetsFor } from '../../bench/fixtures/http-rows.js'
import { root } from '../support/readme-blocks.js'

// The HTTP benchmark's outputs stay honest: the performance guide's tables and the chart are
// what the recorded runs (bench/results/http-node<MAJOR>.json, one a Node.js line) say. No
// benchmark runs here.

interface Ratio {
  cpu: number
  cpuInterval: [number, number]
  reqPerSec: number
  reqPerSecInterval: [number, number]
}
interface HttpResults {
  date: string
  node: string
  results: {
    settings: {
      repetitions: number
      cyclesPerRepetition: number
      warmupSeconds: number
      short: boolean
    }
    rows: {
      name: string
      label: string
      slices: number
      vsBare: number
      cpuMicrosPerRequest: number
      cpuVsBare: number
    }[]
    ratios: Record<string, Ratio>
    targets: (Target & Ratio & { byCpu: string; byReqPerSec: string })[]
  }
}
const dir = join(root, 'bench/results')
const files = readdirSync(dir)
  .filter((f) => /^http-node\d+\.json$/.test(f))
  .map((f) => ({ file: join(dir, f), line: Number(/\d+/.exec(f)![0]) }))
  .sort((a, b) => a.line - b.line)
const runs = files.map(({ file, line }) => ({
  file,
  line,
  ...(JSON.parse(readFileSync(file, 'utf8')) as HttpResults),
}))
const tmp = mkdtempSync(join(tmpdir(), 'http-results-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))
const guide = () => readFileSync(join(root, 'docs/performance.md'), 'utf8')
const cellsOf = (line: string) => line.split('|').map((c) => c.trim())

describe('bench/results/http-node<MAJOR>.json', () => {
  it('has a file for each supported line, no older one, and no one-file results', () => {
    expect(files.map((f) => f.line)).toEqual(expect.arrayContaining([22, 24, 26]))
    expect(files.every((f) => f.line >= 22)).toBe(true)
    expect(readdirSync(dir)).not.toContain('http.json')
  })

  describe.each(runs)('Node $line', (run) => {
    it('was measured on that line', () => {
      expect(run.node).toMatch(new RegExp(`^v${run.line}\\.`))
    })

    it('has a figure for every row of the benchmark, from every slice', () => {
      const { settings } = run.results
      expect(run.results.rows.map((r) => r.name)).toEqual(rows.map((r) => r.name))
      for (const row of run.results.rows) {
        expect(row.slices, row.name).toBe(settings.repetitions * settings.cyclesPerRepetition)
      }
      // A run shorter than a recorded one says so.
      expect(settings.short).toBe(
        settings.repetitions < 6 || settings.cyclesPerRepetition < 6 || settings.warmupSeconds < 2,
      )
    })

    it("judges that line's targets by server CPU per request", () => {
      const targets = targetsFor(run.line)
      expect(
        run.results.targets.map(({ name, min, above, floor }) => ({ name, min, above, floor })),
      ).toEqual(targets.map(({ name, min, above, floor }) => ({ name, min, above, floor })))
      for (const t of run.results.targets) {
        expect(t.cpu, t.name).toBe(run.results.ratios[t.name]!.cpu)
        expect(t.byCpu, t.name).toBe(judge(t, t.cpu))
        expect(t.byReqPerSec, t.name).toBe(judge(t, t.reqPerSec))
      }
    })
  })
})

describe('the performance guide and the chart', () => {
  it('show every row on every line: × bare by CPU and µs per request, then × bare by req/s', () => {
    const lines = guide().split('\n')
    const header = cellsOf(lines.find((l) => l.startsWith('| Row '))!)
    for (const run of runs) {
      const column = header.findIndex((h) => h.startsWith(`Node ${run.node.slice(1)}`))
      expect(column, run.node).toBeGreaterThan(0)
      for (const row of run.results.rows) {
        const line = lines.find((l) => l.startsWith(`| ${row.label} `))
        expect(line, row.label).toBeDefined()
        const cells = cellsOf(line!)
        expect(cells[column]).toBe(
          `${row.cpuVsBare.toFixed(2)}× · ${row.cpuMicrosPerRequest.toFixed(0)} µs`,
        )
        expect(cells.at(-2)!.split(' · ')[runs.indexOf(run)]).toBe(`${row.vsBare.toFixed(2)}×`)
      }
    }
  })

  it('are what scripts/http-bench-tables.mjs writes into the guide from the files (both tables)', () => {
    const copy = join(tmp, 'performance.md')
    copyFileSync(join(root, 'docs/performance.md'), copy)
    execFileSync(process.execPath, [
      join(root, 'scripts/http-bench-tables.mjs'),
      '--page',
      copy,
      ...runs.map((r) => r.file),
    ])
    expect(readFileSync(copy, 'utf8')).toBe(guide())
  })

  it('is what docs/images/http-bench.svg draws from the files', () => {
    const out = join(tmp, 'chart.svg')
    execFileSync(process.execPath, [
      join(root, 'scripts/http-bench-chart.mjs'),
      '--out',
      out,
      ...runs.map((r) => r.file),
    ])
    expect(readFileSync(join(root, 'docs/images/http-bench.svg'), 'utf8')).toBe(
      readFileSync(out, 'utf8'),
    )
  })

  it('both read every results file there is when none is named', () => {
    const copy = join(tmp, 'performance-all.md')
    copyFileSync(join(root, 'docs/performance.md'), copy)
    execFileSync(process.execPath, [join(root, 'scripts/http-bench-tables.mjs'), '--page', copy])
    expect(readFileSync(copy, 'utf8')).toBe(guide())
    const out = join(tmp, 'chart-all.svg')
    execFileSync(process.execPath, [join(root, 'scripts/http-bench-chart.mjs'), '--out', out])
    expect(readFileSync(out, 'utf8')).toBe(
      readFileSync(join(root, 'docs/images/http-bench.svg'), 'utf8'),
    )
  })
})

describe('targetsFor (bench/fixtures/http-rows.ts)', () => {
  it("gives Node 22 issue 19's targets, 24 and every later line issue 32's, each with issue 44's upload target, issue 45's secured one and issue 47's timed one", () => {
    const min = (line: number) => Object.fromEntries(targetsFor(line).map((t) => [t.name, t.min]))
    expect(min(22)).toEqual({
      'guarded / bare': 0.95,
      'logged / bare': 0.85,
      'router-1000 / router-10': 0.97,
      'query / bare-query': 0.95,
      'guarded / peer': 1,
      'upload / multer-upload': 1,
      'secured / guarded': 0.97,
      'timed / guarded': 0.98,
    })
    const later = {
      'guarded / bare': 1,
      'logged / bare': 0.9,
      'router-1000 / router-10': 0.97,
      'query / bare-query': 0.97,
      'guarded / peer': 1,
      'upload / multer-upload': 1,
      'secured / guarded': 0.97,
      'timed / guarded': 0.98,
    }
    expect(min(24)).toEqual(later)
    expect(min(26)).toEqual(later)
    expect(min(28)).toEqual(later)
    expect(() => targetsFor(20)).toThrow(/not supported/)
  })

  it('judges a ratio met, floor met or not met', () => {
    const guarded = targetsFor(24).find((t) => t.name === 'guarded / bare')!
    expect([1, 0.999, 0.95, 0.949].map((r) => judge(guarded, r))).toEqual([
      'met',
      'floor met',
      'floor met',
      'not met',
    ])
    const peer = targetsFor(24).find((t) => t.name === 'guarded / peer')!
    expect([1.001, 1].map((r) => judge(peer, r))).toEqual(['met', 'not met'])
  })
})

describe('summarise (bench/fixtures/cpu-profile.ts)', () => {
  const frame = (functionName: string, url: string) => ({
    functionName,
    url,
    lineNumber: 0,
    columnNumber: 0,
  })

  it('names the owner of a frame', () => {
    expect(ownerOf(frame('next', 'file:///app/node_modules/router/index.js'))).toBe('router')
    expect(ownerOf(frame('x', 'file:///app/node_modules/@scope/pkg/a.js'))).toBe('@scope/pkg')
    expect(ownerOf(frame('validate12', ''))).toBe('ajv (generated)')
    expect(ownerOf(frame('(garbage collector)', ''))).toBe('(garbage collector)')
    expect(ownerOf(frame('writev', ''))).toBe('native')
    expect(ownerOf(frame('emit', 'node:events'))).toBe('node')
    expect(ownerOf(frame('guards', `file://${process.cwd()}/dist/index.js`))).toBe('shapeguard')
  })

  it('shares self and total time among busy samples, idle left out', () => {
    const path = join(tmp, 'p.cpuprofile')
    const shapeguard = `file://${process.cwd()}/src/runtime/x.ts`
    writeFileSync(
      path,
      JSON.stringify({
        nodes: [
          { id: 1, callFrame: frame('(root)', ''), children: [2, 4] },
          { id: 2, callFrame: frame('handle', shapeguard), children: [3] },
          { id: 3, callFrame: frame('next', 'file:///a/node_modules/router/index.js') },
          { id: 4, callFrame: frame('(idle)', '') },
        ],
        // handle itself twice, next (under handle) once, idle once; 10 µs apart
        samples: [2, 3, 2, 4],
        timeDeltas: [10, 10, 10, 10],
      }),
    )
    const summary = summarise(path)
    expect(summary.busySamples).toBe(3)
    expect(summary.busyMicros).toBe(30)
    expect(summary.idlePct).toBe(25)
    expect(summary.owners).toEqual([
      { owner: 'shapeguard', selfPct: 66.67 },
      { owner: 'router', selfPct: 33.33 },
    ])
    const handle = summary.functions.find((f) => f.name === 'handle')!
    expect([handle.selfPct, handle.totalPct]).toEqual([66.67, 100])
    const next = summary.functions.find((f) => f.name === 'next')!
    expect([next.selfPct, next.totalPct]).toEqual([33.33, 33.33])
  })
})
