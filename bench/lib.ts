import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { Bench } from 'tinybench'

export interface CaseResult {
  name: string
  opsPerSec: number
  meanNs: number
  /** ops/s of this case divided by ops/s of the baseline (> 1 is faster). */
  vsBaseline: number
}

export interface Comparison {
  question: string
  baseline: string
  cases: CaseResult[]
}

/**
 * Runs every case in one process and reports each against the baseline. The cases run in
 * `rounds` rounds (3 by default), all cases once per round, and each case's median round counts:
 * a noisy neighbour on a shared machine must hit two rounds of one case to move its figure.
 * Ratios, not absolute times, are the result.
 */
export async function compare(
  question: string,
  baseline: string,
  cases: Record<string, () => unknown>,
  options: { time?: number; rounds?: number } = {},
): Promise<Comparison> {
  if (!(baseline in cases)) throw new Error(`baseline "${baseline}" is not one of the cases`)
  const rounds: Record<string, number[]> = Object.fromEntries(
    Object.keys(cases).map((name) => [name, []]),
  )
  for (let round = 0; round < (options.rounds ?? 3); round++) {
    const bench = new Bench({ time: options.time ?? 400, warmupTime: 100 })
    for (const [name, fn] of Object.entries(cases)) bench.add(name, fn)
    await bench.run()
    for (const name of Object.keys(cases)) {
      const result = bench.getTask(name)?.result
      if (!result || !('throughput' in result)) throw new Error(`case "${name}" did not run`)
      rounds[name]!.push(result.throughput.mean)
    }
  }
  const hz = (name: string) => median(rounds[name]!)
  const base = hz(baseline)
  return {
    question,
    baseline,
    cases: Object.keys(cases).map((name) => ({
      name,
      opsPerSec: Math.round(hz(name)),
      meanNs: Math.round(1e9 / hz(name)),
      vsBaseline: Number((hz(name) / base).toFixed(3)),
    })),
  }
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export function printComparison(c: Comparison): void {
  process.stdout.write(`\n${c.question}  (baseline: ${c.baseline})\n`)
  for (const r of c.cases) {
    process.stdout.write(
      `  ${r.name.padEnd(44)} ${String(r.opsPerSec).padStart(12)} ops/s  ${r.vsBaseline.toFixed(2).padStart(7)}x\n`,
    )
  }
}

export function writeResults(file: string, results: unknown): void {
  const path = join(import.meta.dirname, 'results', `${file}.json`)
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(
    path,
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, results }, null, 2)}\n`,
  )
}

export interface Growth extends Comparison {
  /** Time at 10n over time at n: about 10 for linear work, 100 for quadratic. */
  timeAt10n: number
  /** Time of the hostile input at 10n over the ordinary input's. */
  vsOrdinary: number
}

/**
 * How the time of `run` grows with the size of a hostile input: the hostile input of size n (the
 * baseline) and of size 10n, next to an ordinary input (`ordinary(10 * n)`, of the same size
 * unless the ordinary kind has a size of its own). Inputs are built before timing.
 */
export async function growth(
  question: string,
  n: number,
  hostile: (size: number) => unknown,
  ordinary: (size: number) => unknown,
  run: (input: unknown) => unknown,
): Promise<Growth> {
  const [small, large, plain] = [hostile(n), hostile(10 * n), ordinary(10 * n)]
  const c = await compare(question, `hostile, n = ${n}`, {
    [`hostile, n = ${n}`]: () => run(small),
    'hostile, 10n': () => run(large),
    ordinary: () => run(plain),
  })
  const ns = (i: number) => c.cases[i]!.meanNs
  return {
    ...c,
    timeAt10n: Number((ns(1) / ns(0)).toFixed(2)),
    vsOrdinary: Number((ns(1) / ns(2)).toFixed(2)),
  }
}

export function printGrowth(g: Growth): void {
  printComparison(g)
  process.stdout.write(
    `  time at 10n: ${g.timeAt10n}x the time at n (linear: ~10); ${g.vsOrdinary}x the ordinary input\n`,
  )
}
