import { checkSync } from 'recheck'
import { string } from 'yup'
import { z } from 'zod'
import { linearUrl } from '../../src/adapters/yup/linear-patterns.js'
import { stringCheck, type ZodCheckLike } from '../../src/adapters/zod/checks.js'

// recheck's fuzzer is seeded so that a run is reproducible; its native backend answers well
// inside the timeout, the largest patterns (yup's url, valibot's emoji) slowest.
export const recheckParams = { timeout: 20_000, randomSeed: 1 }
export const key = (re: { source: string; flags: string }): string => `/${re.source}/${re.flags}`

const zodEndsWith = z.string().endsWith('.io')
const endsWithCheck = (zodEndsWith._zod.def.checks ?? [])[0] as unknown as ZodCheckLike
const irPattern = (c: ReturnType<typeof stringCheck>) => (c?.kind === 'pattern' ? c.pattern : /$^/)

// yup keeps its url pattern to itself: the test carries it.
const yupUrl = (
  string().url().tests.at(-1) as unknown as { OPTIONS: { params: { regex: RegExp } } }
).OPTIONS.params.regex

/** Vulnerable library patterns that request data never reaches: each has a linear equivalent. */
export const replaced: Record<string, { readonly by: RegExp; readonly where: string }> = {
  // yup's string().url(): exponential. The yup adapter's compiled path and its native yup
  // validation both run linearUrl (src/adapters/yup/linear-patterns.ts).
  [key(yupUrl)]: { by: linearUrl, where: 'yup string().url()' },
  // zod's endsWith pattern `.*suffix$`: quadratic. zod itself checks with String#endsWith; the
  // compiled path runs `suffix$`.
  [key(endsWithCheck._zod.def.pattern)]: {
    by: irPattern(stringCheck(endsWithCheck)),
    where: 'zod string().endsWith()',
  },
}

/** Vulnerable patterns in the libraries that can never meet request data, and why. */
export const unreachable: Record<string, string> = {
  // yup's printValue: only for a symbol, which no JSON body, query string or header holds.
  '/^Symbol\\((.*)\\)(.*)$/': 'yup printValue(symbol)',
  // zod's slugify(): it runs after `.replace(/[\s_-]+/g, '-')`, so the string it meets never
  // holds two dashes in a row, and `-+$` then fails at once at every dash (proved in the audit).
  '/^-+|-+$/g': 'zod util.slugify',
}

/** recheck's attack on a pattern, pumped to at most `length` characters; undefined if safe. */
export function pumpedAttack(re: RegExp, length: number): string | undefined {
  const d = checkSync(re.source, re.flags, recheckParams)
  if (d.status !== 'vulnerable') return undefined
  const { pumps, suffix } = d.attack
  const fixed = pumps.reduce((n, p) => n + p.prefix.length, suffix.length)
  const per = pumps.reduce((n, p) => n + p.pump.length, 0)
  const times = Math.floor((length - fixed) / per)
  return pumps.map((p) => p.prefix + p.pump.repeat(times)).join('') + suffix
}

/** The known vulnerable library patterns, as RegExps. */
export function knownVulnerable(): RegExp[] {
  return [...Object.keys(replaced), ...Object.keys(unreachable)].map((k) => {
    const end = k.lastIndexOf('/')
    return new RegExp(k.slice(1, end), k.slice(end + 1))
  })
}
