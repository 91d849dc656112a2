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
 * Runs every case in one process, in one run, and reports each against the baseline.
 * Ratios, not absolute times, are the result: the machines are shared and noisy.
 */
export async function compare(
  question: string,
  baseline: string,
  cases: Record<string, () => unknown>,
  options: { time?: number } = {},
): Promise<Comparison> {
  if (!(baseline in cases)) throw new Error(`baseline "${baseline}" is not one of the cases`)
  const bench = new Bench({ time: options.time ?? 500, warmupTime: 200 })
  for (const [name, fn] of Object.entries(cases)) bench.add(name, fn)
  await bench.run()
  const hz = (name: string) => {
    const task = bench.getTask(name)
    const result = task?.result
    if (!result || !('throughput' in result)) throw new Error(`case "${name}" did not run`)
    return result.throughput.mean
  }
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
