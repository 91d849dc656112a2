import { checkSync } from 'recheck'
import { key, knownVulnerable, recheckParams } from './known-vulnerable.js'

export interface PatternRuns {
  /** How many times each known vulnerable pattern ran, by `key`. */
  readonly all: Map<string, number>
  /** The patterns that met a string holding their attack's pump twice in a row. */
  readonly risky: string[]
}

let pumps: Map<string, string> | undefined

// What recheck's attack on each known vulnerable pattern repeats: the part that makes it backtrack.
function pumpsByKey(): Map<string, string> {
  pumps ??= new Map(
    knownVulnerable().map((re) => {
      const d = checkSync(re.source, re.flags, recheckParams)
      if (d.status !== 'vulnerable') throw new Error(`${key(re)} is no longer vulnerable`)
      return [key(re), d.attack.pumps.map((p) => p.pump).join('')]
    }),
  )
  return pumps
}

/**
 * Runs `fn` and counts the runs of the known vulnerable patterns, the work that can backtrack,
 * instead of timing it: a run on a string that holds the pattern's pump twice in a row is listed
 * in `risky` and refused (no match) instead of run, so a regression fails at once instead of
 * stalling. Every match, test, search and replace calls RegExp.prototype.exec once it is replaced.
 */
export async function patternRuns(fn: () => unknown): Promise<PatternRuns> {
  const byKey = pumpsByKey()
  const runs = { all: new Map<string, number>(), risky: [] as string[] }
  const exec = RegExp.prototype.exec
  RegExp.prototype.exec = function (this: RegExp, input: string) {
    const k = key(this)
    const pump = byKey.get(k)
    if (pump === undefined) return exec.call(this, input)
    runs.all.set(k, (runs.all.get(k) ?? 0) + 1)
    if (!String(input).includes(pump + pump)) return exec.call(this, input)
    runs.risky.push(k)
    return null
  }
  try {
    await fn()
  } finally {
    RegExp.prototype.exec = exec
  }
  return runs
}
