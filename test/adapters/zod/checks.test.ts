import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { stringCheck, type ZodCheckLike } from '../../../src/adapters/zod/checks.js'
import { zodAdapter } from '../../../src/adapters/zod/zod-adapter.js'
import { compile } from '../../../src/engine/index.js'

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
    // zod's `.*abc$` on 'c'.repeat(n) + '\n' (recheck's attack) is quadratic: ~60 ms at 10,000
    // characters, ~240 ms at 20,000, and it runs on every request the compiled path sees.
    const v = compile(zodAdapter(z.object({ name: z.string().endsWith('abc') })))
    const attack = `${'c'.repeat(100_000)}\n`
    const start = performance.now()
    expect(v.validate({ name: attack }, false)).toMatchObject({ success: false })
    expect(performance.now() - start).toBeLessThan(200)
  })
})
