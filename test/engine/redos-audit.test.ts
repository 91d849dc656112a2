import { checkSync, type Diagnostics } from 'recheck'
import { describe, expect, it } from 'vitest'
import { string } from 'yup'
import { z } from 'zod'
import { linearUrl } from '../../src/adapters/yup/linear-patterns.js'
import { stringCheck, type ZodCheckLike } from '../../src/adapters/zod/checks.js'
import { zodAdapter } from '../../src/adapters/zod/zod-adapter.js'
import { compile } from '../../src/engine/index.js'
import { libraryRegexes } from './regex-inventory.js'

// recheck's fuzzer is seeded so that a run is reproducible; its native backend answers most
// patterns in milliseconds, the largest (yup's url, valibot's emoji) in under a second.
const params = { timeout: 20_000, randomSeed: 1 }
const key = (re: { source: string; flags: string }) => `/${re.source}/${re.flags}`

const zodEndsWith = z.string().endsWith('.io')
const endsWithCheck = (zodEndsWith._zod.def.checks ?? [])[0] as unknown as ZodCheckLike
const irPattern = (c: ReturnType<typeof stringCheck>) => (c?.kind === 'pattern' ? c.pattern : /$^/)

// yup keeps its url pattern to itself: the test carries it.
const yupUrl = (
  string().url().tests.at(-1) as unknown as { OPTIONS: { params: { regex: RegExp } } }
).OPTIONS.params.regex

/** Vulnerable library patterns that request data never reaches: each has a linear equivalent. */
const replaced: Record<string, { readonly by: RegExp; readonly where: string }> = {
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
const unreachable: Record<string, string> = {
  // yup's printValue: only for a symbol, which no JSON body, query string or header holds.
  '/^Symbol\\((.*)\\)(.*)$/': 'yup printValue(symbol)',
  // zod's slugify(): it runs after `.replace(/[\s_-]+/g, '-')`, so the string it meets never
  // holds two dashes in a row, and `-+$` then fails at once at every dash (proved below).
  '/^-+|-+$/g': 'zod util.slugify',
}

describe('ReDoS audit (recheck)', () => {
  const found = libraryRegexes()
  const unique = new Map(found.map((re) => [key(re), re]))

  it('finds the patterns of all three libraries, of ajv and of our own source', () => {
    const where = [...unique.values()].map((r) => r.where.split(/[ /]/)[0])
    for (const lib of ['zod', 'valibot', 'yup', 'ajv', 'src']) expect(where).toContain(lib)
    expect(unique.size).toBeGreaterThan(120)
  })

  it('clears every pattern as linear, or knows it is replaced or never meets request data', () => {
    const problems: string[] = []
    for (const [k, re] of unique) {
      const d: Diagnostics = checkSync(re.source, re.flags, params)
      if (d.status === 'safe') continue
      if (d.status === 'vulnerable' && (k in replaced || k in unreachable)) continue
      problems.push(
        `${re.where} ${k.slice(0, 120)}: ${d.status} ${JSON.stringify(d)}`.slice(0, 400),
      )
    }
    expect(problems).toEqual([])
  }, 120_000)

  it('lists only patterns that still exist and are vulnerable (no stale entries)', () => {
    for (const k of [...Object.keys(replaced), ...Object.keys(unreachable)]) {
      expect(unique.has(k), k).toBe(true)
      const re = unique.get(k)!
      expect(checkSync(re.source, re.flags, params).status, k).toBe('vulnerable')
    }
  }, 60_000)

  it('replaces each vulnerable pattern with one recheck finds safe', () => {
    for (const [k, { by, where }] of Object.entries(replaced)) {
      expect(checkSync(by.source, by.flags, params).status, `${where} ${k}`).toBe('safe')
    }
  }, 60_000)

  it('zod slugify() never lets recheck’s attack reach its `-+$`', () => {
    const slug = compile(zodAdapter(z.string().slugify()))
    const attack = `\x00${'-'.repeat(100_000)}-\x00`
    const start = performance.now()
    expect(slug.validate(attack, false)).toEqual({ success: true, data: '' })
    expect(performance.now() - start).toBeLessThan(200)
  })
})
