import { checkSync, type Diagnostics } from 'recheck'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { zodAdapter } from '../../../src/adapters/zod/zod-adapter.js'
import { compile } from '../../../src/engine/index.js'
import {
  key,
  recheckParams as params,
  replaced,
  unreachable,
} from '../../support/known-vulnerable.js'
import { patternRuns } from '../../support/pattern-runs.js'
import { libraryRegexes } from './regex-inventory.js'

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

  it('zod slugify() never lets recheck’s attack reach its `-+$`', async () => {
    const slug = compile(zodAdapter(z.string().slugify()))
    const attack = `\x00${'-'.repeat(100_000)}-\x00`
    const runs = await patternRuns(() => {
      expect(slug.validate(attack, false)).toEqual({ success: true, data: '' })
    })
    expect(runs.all.get(key(/^-+|-+$/g))).toBeGreaterThan(0)
    expect(runs.risky).toEqual([])
  }, 60_000)
})
