import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { docFiles, root } from '../support/readme-blocks.js'

// Every benchmark figure README.md and docs/**/*.md quote is held by a result file the same
// block names, and the block names the Node line it was measured on. The rule, precisely:
//
// - Text: each file's lines outside code fences; HTML comments are dropped.
// - Blocks: runs of non-blank lines (a paragraph, a list, a table). A table or a list also takes the
//   result files and Node lines of the block right above it (its caption). The HTTP benchmark's
//   generated tables (between `<!-- http-bench … start -->` and `<!-- http-bench … end -->`) are
//   left out: test/bench/http-results.test.ts checks them against the files, cell by cell.
// - A benchmark block names a result file (`bench/results/NAME.json` or `.md`; `-nodeNN.json`
//   right after a full name stands for that name on line NN; `<N>` or `*` in a name stands for every
//   file it matches), or says bench or benchmark (BENCH_WORDS), or quotes a ratio (a figure in ×),
//   or has a figure within 80 characters of faster, slower or as fast as (COMPARED).
// - A figure, in a benchmark block: a number (thousands commas and decimals allowed, a range
//   `a–b` counts as both ends), then a unit of UNITS: × right after the number (`1.37×`; `2–4 ×`,
//   spaced, is a multiplier of a setting), the others after an optional space (ns, µs, ms, ops/s,
//   req/s, events/s, %, min, minutes).
// - A block with a figure must name a result file and a Node line (`Node 26`, or a file named
//   `-node26`), and each figure must be held by one of its files: some number of the file (a JSON
//   number, or a number written inside one of its strings; any number of an .md file), in the
//   scales of SCALES for the figure's unit, rounds to the figure at the figure's own decimals.
// - `<!-- figures: not measured: REASON -->` on the line right above a block exempts it: its
//   numbers are settings, goals or sums, not measurements (the reason is mandatory).

const BENCH_WORDS = /\bbench(?:mark)?s?\b|bench[/:]/i
const COMPARED = /\bfaster\b|\bslower\b|\bas fast as\b/i
const UNITS = ['×', 'ns', 'µs', 'ms', 'ops/s', 'req/s', 'events/s', '%', 'minutes', 'min']
const NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`
const FIGURE = new RegExp(
  String.raw`(?<![\w.,/#-])(${NUMBER})(?:\s?[–-]\s?(${NUMBER}))?(×|\s?(?:${UNITS.filter(
    (u) => u !== '×',
  )
    .map((u) => u.replace('/', '\\/'))
    .join('|')}))(?![\w/])`,
  'g',
)
/** How a number of a result file may be quoted in a unit: the file's own unit or a neighbour's. */
const SCALES: Record<string, ((n: number) => number)[]> = {
  '×': [(n) => n],
  ns: [(n) => n, (n) => n * 1e3],
  µs: [(n) => n, (n) => n / 1e3, (n) => n * 1e3],
  ms: [(n) => n, (n) => n / 1e3, (n) => n / 1e6],
  'ops/s': [(n) => n],
  'req/s': [(n) => n],
  'events/s': [(n) => n],
  '%': [(n) => n, (n) => n * 100, (n) => Math.abs(1 - n) * 100],
  min: [(n) => n, (n) => n / 60, (n) => n / 60_000],
  minutes: [(n) => n, (n) => n / 60, (n) => n / 60_000],
}
const EXEMPT = /^<!-- figures: not measured: \S.* -->$/
const RESULT =
  /bench\/results\/([\w.*<>-]+?\.(?:json|md))|(?<![\w/])(-node\d\d(?:-baseline)?\.json)/g

interface Problem {
  line: number
  text: string
  why: string
}

interface Block {
  line: number
  lines: string[]
  exempt: boolean
}

function blocksOf(text: string): Block[] {
  const blocks: Block[] = []
  let fenced = false
  let current: Block | undefined
  let exemptNext = false
  const prose = text
    .replace(/<!-- http-bench [\w ]+ start -->[\s\S]*?<!-- http-bench [\w ]+ end -->/g, (c) =>
      c.replace(/[^\n]/g, ' '),
    )
    .replace(/<!--[\s\S]*?-->/g, (c) => (EXEMPT.test(c) ? c : c.replace(/[^\n]/g, ' ')))
  prose.split('\n').forEach((raw, i) => {
    const line = raw.trimEnd()
    if (line.trimStart().startsWith('```')) {
      fenced = !fenced
      current = undefined
      return
    }
    if (fenced) return
    if (EXEMPT.test(line.trim())) {
      exemptNext = true
      current = undefined
      return
    }
    if (line.trim() === '') {
      current = undefined
      return
    }
    if (current === undefined || current.lines[0]?.startsWith('|') !== line.startsWith('|')) {
      current = { line: i + 1, lines: [], exempt: exemptNext }
      exemptNext = false
      blocks.push(current)
    }
    current.lines.push(line)
  })
  return blocks
}

/** The result files a block names, expanded to existing names. */
function filesOf(text: string, list: () => string[]): string[] {
  const names: string[] = []
  let last: string | undefined
  for (const m of text.matchAll(RESULT)) {
    let name = m[1]
    if (name === undefined && m[2] !== undefined && last !== undefined) {
      name = last.replace(/-node(?:\d\d|<N>|\*)(?:-baseline)?\.json$/, m[2])
    }
    if (name === undefined) continue
    last = name
    if (/[*<]/.test(name)) {
      const pattern = new RegExp(
        `^${name.replace(/[.]/g, '\\.').replace(/<N>|\*/g, '[\\w-]*')}$`.replace(/-\[/, '-?['),
      )
      names.push(...list().filter((f) => pattern.test(f)))
    } else names.push(name)
  }
  return [...new Set(names)]
}

/** Every number a result file holds. */
function numbersOf(content: string, name: string): number[] {
  const numbers: number[] = []
  const fromText = (s: string) => {
    for (const m of s.matchAll(/\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?/g))
      numbers.push(Number(m[0].replace(/,/g, '')))
  }
  if (!name.endsWith('.json')) {
    fromText(content)
    return numbers
  }
  const walk = (v: unknown): void => {
    if (typeof v === 'number') numbers.push(v)
    else if (typeof v === 'string') fromText(v)
    else if (Array.isArray(v)) v.forEach(walk)
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        fromText(k)
        walk(x)
      }
    }
  }
  walk(JSON.parse(content))
  return numbers
}

function holds(numbers: number[], figure: string, unit: string): boolean {
  const value = Number(figure.replace(/,/g, ''))
  const decimals = figure.split('.')[1]?.length ?? 0
  const scales = SCALES[unit] ?? [(n: number) => n]
  const round = (x: number) => Number(x.toFixed(decimals))
  return numbers.some((n) => scales.some((s) => round(s(n)) === value))
}

interface Results {
  /** Names of the files in bench/results/. */
  list: () => string[]
  /** A file's text, or undefined when there is none. */
  read: (name: string) => string | undefined
}

/** The figures of one Markdown text that break the rule above. */
function checkFigures(text: string, results: Results): Problem[] {
  const problems: Problem[] = []
  const cache = new Map<string, number[] | undefined>()
  const numbers = (name: string) => {
    if (!cache.has(name)) {
      const content = results.read(name)
      cache.set(name, content === undefined ? undefined : numbersOf(content, name))
    }
    return cache.get(name)
  }
  let above: Block | undefined
  for (const block of blocksOf(text)) {
    const own = block.lines.join('\n')
    const first = block.lines[0] ?? ''
    const isTable = first.startsWith('|') || /^(?:[-*]|\d+\.) /.test(first)
    const context = isTable && above !== undefined ? `${above.lines.join('\n')}\n${own}` : own
    above = block
    if (block.exempt) continue
    const files = filesOf(context, results.list)
    const figures = [...own.matchAll(FIGURE)]
    if (figures.length === 0) continue
    const compared = figures.some(
      (m) =>
        m[3] === '×' ||
        COMPARED.test(
          own.slice(Math.max(0, (m.index ?? 0) - 80), (m.index ?? 0) + m[0].length + 80),
        ),
    )
    if (files.length === 0 && !BENCH_WORDS.test(context) && !compared) continue
    const say = (why: string) => problems.push({ line: block.line, text: own.slice(0, 100), why })
    if (files.length === 0) {
      say(`quotes ${figures[0]?.[0]} and names no result file (bench/results/…)`)
      continue
    }
    const missing = files.filter((f) => numbers(f) === undefined)
    if (missing.length > 0) {
      say(`names ${missing.join(', ')}, which is not in bench/results/`)
      continue
    }
    if (
      !/\bNode(?:\.js)? (?:\d\d|lines? \d\d)/.test(context) &&
      !files.some((f) => /-node\d\d/.test(f))
    )
      say('names no Node line (Node 26, or a file named -node26)')
    const held = files.flatMap((f) => numbers(f) ?? [])
    for (const m of figures) {
      const unit = (m[3] ?? '').trim()
      for (const figure of [m[1], m[2]]) {
        if (figure !== undefined && !holds(held, figure, unit))
          say(`${figure} ${unit} is in none of ${files.join(', ')}`)
      }
    }
  }
  return problems
}

const dir = resolve(root, 'bench/results')
const onDisk: Results = {
  list: () => readdirSync(dir),
  read: (name) => {
    const path = resolve(dir, name)
    return existsSync(path) ? readFileSync(path, 'utf8') : undefined
  },
}

describe('benchmark figures in README.md and docs/', () => {
  it.each(docFiles())('%s quotes only figures its named result files hold', (file) => {
    const problems = checkFigures(readFileSync(resolve(root, file), 'utf8'), onDisk).map(
      (p) => `${file}:${p.line} ${p.why} — “${p.text}…”`,
    )
    expect(problems).toEqual([])
  })
})

describe('the figures rule', () => {
  const fixture: Results = {
    list: () => ['engine-node26.json', 'sse-node22.json', 'sse-node26.json'],
    read: (name) =>
      ({
        'engine-node26.json': JSON.stringify({
          node: 'v26.12.1',
          results: { vsBaseline: 7.391, meanNs: 1840, note: 'load average 1.8' },
        }),
        'sse-node22.json': JSON.stringify({ node: 'v22.23.3', ratio: 1.65 }),
        'sse-node26.json': JSON.stringify({ node: 'v26.12.1', ratio: 1.34 }),
      })[name],
  }
  const check = (text: string) => checkFigures(text, fixture).map((p) => p.why)

  it('passes a figure its named file holds, in its own or a neighbouring unit', () => {
    expect(
      check(
        'The engine bench gives 7.39× zod and 1,840 ns (1.8 µs) a call (Node 26, `bench/results/engine-node26.json`).',
      ),
    ).toEqual([])
  })

  it('fails a planted wrong figure', () => {
    expect(
      check('The engine bench gives 7.93× zod (Node 26, `bench/results/engine-node26.json`).'),
    ).toEqual(['7.93 × is in none of engine-node26.json'])
  })

  it('fails a figure that names no result file', () => {
    expect(check('shapeguard is 1.5× faster than zod on Node 26.')).toEqual([
      'quotes 1.5× and names no result file (bench/results/…)',
    ])
  })

  it('fails a figure whose file names no Node line, or a file that is not there', () => {
    expect(
      check(
        'A bench: 1.65× (`bench/results/sse.json`).\n\nA bench: 1.65× (`bench/results/sse-node22.json`).',
      ),
    ).toEqual(['names sse.json, which is not in bench/results/'])
  })

  it('reads the -nodeNN.json shorthand, tables under their caption, and both ends of a range', () => {
    const text = [
      'The SSE bench (`bench/results/sse-node22.json`, `-node26.json`):',
      '',
      '| Node | ratio |',
      '| ---- | ----- |',
      '| 22   | 1.65× |',
      '| 26   | 1.34× |',
      '',
      'Between 1.34–1.66× (Node 22 and 26, bench/results/sse-node22.json, -node26.json).',
    ].join('\n')
    expect(check(text)).toEqual(['1.66 × is in none of sse-node22.json, sse-node26.json'])
  })

  it('skips code, blocks that are not about benchmarks, and exempt blocks', () => {
    const text = [
      '```ts',
      '// 99.9× faster, says the bench',
      '```',
      '',
      'A route timeout of 30 s and a 250 ms delay.',
      '',
      '<!-- figures: not measured: goals of the bench, not results -->',
      'The bench aims at ≥ 0.95× and at most 3 % more.',
    ].join('\n')
    expect(check(text)).toEqual([])
  })
})
