import fc from 'fast-check'
import { checkSync } from 'recheck'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { stringCheck, type ZodCheckLike } from '../../../src/adapters/zod/checks.js'
import { zodAdapter } from '../../../src/adapters/zod/zod-adapter.js'
import { compile } from '../../../src/engine/index.js'

// recheck's fuzzer is seeded, so a verdict is reproducible.
const recheck = { timeout: 20_000, randomSeed: 1 }
const checkOf = (s: z.ZodString) => (s._zod.def.checks ?? [])[0] as unknown as ZodCheckLike

describe('stringCheck', () => {
  it('gives endsWith a pattern of the same language that needs no retry from every start', () => {
    const unit = fc.constantFrom(...'ab.$\n\r\u2028*'.split(''))
    fc.assert(
      fc.property(
        fc.string({ unit, minLength: 1, maxLength: 3 }),
        fc.string({ unit }),
        (suffix, s) => {
          const check = stringCheck(checkOf(z.string().endsWith(suffix)))
          if (check?.kind !== 'pattern') throw new Error('expected a pattern')
          expect(check.affix).toBe(suffix)
          expect(check.pattern.test(s)).toBe(s.endsWith(suffix))
          expect(check.pattern.source.startsWith('.*')).toBe(false)
        },
      ),
    )
  })

  it('answers an endsWith route in linear time on the string that stalls zod’s own pattern', () => {
    // zod's `.*abc$` on 'c'.repeat(n) + '\n' (recheck's attack) is quadratic: it would take
    // long on this string (bench/hostile-strings.bench.ts measures it), and it runs on every
    // request the compiled path sees.
    const schema = z.string().endsWith('abc')
    const zodPattern = (checkOf(schema)._zod.def as { pattern: RegExp }).pattern
    const ours = stringCheck(checkOf(schema))
    if (ours?.kind !== 'pattern') throw new Error('expected a pattern')
    expect(checkSync(ours.pattern.source, ours.pattern.flags, recheck).status).toBe('safe')
    expect(checkSync(zodPattern.source, zodPattern.flags, recheck).status).toBe('vulnerable')
    // zod's pattern, if run, is counted instead of run.
    let zodRuns = 0
    Object.defineProperty(zodPattern, 'exec', {
      configurable: true,
      value: () => {
        zodRuns++
        return null
      },
    })
    try {
      const v = compile(zodAdapter(z.object({ name: schema })))
      const attack = `${'c'.repeat(100_000)}\n`
      expect(v.validate({ name: attack }, false)).toMatchObject({ success: false })
      expect(v.validate({ name: 'xabc' }, false)).toMatchObject({ success: true })
      expect(zodRuns).toBe(0)
      // The counter counts: the same pattern run directly is seen.
      zodPattern.test(attack)
      expect(zodRuns).toBe(1)
    } finally {
      Reflect.deleteProperty(zodPattern, 'exec')
    }
  })
})
