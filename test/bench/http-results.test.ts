import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ownerOf, summarise } from '../../bench/fixtures/cpu-profile.js'
import { rows } from '../../bench/fixtures/http-rows.js'
import { root } from '../readme/readme-blocks.js'

// The HTTP benchmark's outputs stay honest: the README's performance table and the chart are
// what the recorded run (bench/results/http.json) says. No benchmark runs here.

interface HttpResults {
  results: {
    rows: {
      name: string
      label: string
      vsBare: number
      cpuMicrosPerRequest: number
      cpuVsBare: number
      median: { vsBare: number }
    }[]
  }
}
const results = JSON.parse(
  readFileSync(join(root, 'bench/results/http.json'), 'utf8'),
) as HttpResults
const dir = mkdtempSync(join(tmpdir(), 'http-results-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('bench/results/http.json', () => {
  it('has a figure for every row of the benchmark', () => {
    expect(results.results.rows.map((r) => r.name)).toEqual(rows.map((r) => r.name))
  })

  it("is what the README's performance table shows", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    const section = readme.slice(readme.indexOf('\n## Performance\n'))
    const table = section.slice(0, section.indexOf('\n## ', 1))
    for (const row of results.results.rows) {
      const line = table.split('\n').find((l) => l.startsWith(`| ${row.label} `))
      expect(line, row.label).toBeDefined()
      const cells = line!.split('|').map((c) => c.trim())
      expect(cells[2]).toBe(`${row.vsBare.toFixed(2)}×`)
      expect(cells[3]).toBe(`${row.median.vsBare.toFixed(2)}×`)
      expect(cells[4]).toBe(row.cpuMicrosPerRequest.toFixed(0))
      expect(cells[5]).toBe(`${row.cpuVsBare.toFixed(2)}×`)
    }
  })

  it('is what scripts/http-bench-readme.mjs writes into the README (both tables)', () => {
    const copy = join(dir, 'README.md')
    copyFileSync(join(root, 'README.md'), copy)
    execFileSync(process.execPath, [
      join(root, 'scripts/http-bench-readme.mjs'),
      join(root, 'bench/results/http.json'),
      copy,
    ])
    expect(readFileSync(copy, 'utf8')).toBe(readFileSync(join(root, 'README.md'), 'utf8'))
  })

  it('is what docs/images/http-bench.svg draws', () => {
    const out = join(dir, 'chart.svg')
    execFileSync(process.execPath, [
      join(root, 'scripts/http-bench-chart.mjs'),
      join(root, 'bench/results/http.json'),
      out,
    ])
    expect(readFileSync(join(root, 'docs/images/http-bench.svg'), 'utf8')).toBe(
      readFileSync(out, 'utf8'),
    )
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
    const path = join(dir, 'p.cpuprofile')
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
