import { type } from 'arktype'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import * as y from 'yup'
import * as z from 'zod'
import { toAdapter } from '../../../src/adapters/resolve.js'
import {
  isStandardSchema,
  type StandardSchemaV1,
  standardAdapter,
} from '../../../src/adapters/standard/index.js'
import { valibotAdapter } from '../../../src/adapters/valibot/index.js'
import { compile, isAdapter } from '../../../src/engine/index.js'
import { yupIsStandard } from '../../support/peer-features.js'

const User = type({ name: 'string>1', age: 'number.integer>=0', 'tags?': 'string[]' })

describe('standardAdapter', () => {
  it('validates an ArkType schema natively, with no IR', () => {
    const a = standardAdapter(User)
    expect(isAdapter(a)).toBe(true)
    expect(a.library).toBe('standard-schema')
    expect(a.ir).toBeUndefined()
    expect(standardAdapter(User)).toBe(a)
    expect(a.parse({ name: 'Ada', age: 36 })).toEqual({
      success: true,
      data: { name: 'Ada', age: 36 },
    })
  })

  it('keeps the library’s messages, paths and (when present) codes', () => {
    const r = standardAdapter(User).parse({ name: 'A', age: 1, tags: ['x', 2] })
    expect(r).toEqual({
      success: false,
      issues: [
        { path: ['name'], message: 'name must be at least length 2 (was 1)', code: 'minLength' },
        { path: ['tags', 1], message: 'tags[1] must be a string (was a number)', code: 'domain' },
      ],
    })
  })

  it('reads object path segments and symbols, and gives issues without a code the code "invalid"', () => {
    const sym = Symbol('s')
    const schema: StandardSchemaV1<unknown, unknown> = {
      '~standard': {
        version: 1,
        vendor: 'hand-written',
        validate: () => ({ issues: [{ message: 'bad', path: [{ key: 'a' }, 0, sym] }] }),
      },
    }
    expect(standardAdapter(schema).parse(1)).toEqual({
      success: false,
      issues: [{ path: ['a', 0, 'Symbol(s)'], message: 'bad', code: 'invalid' }],
    })
  })

  it('returns a promise when the schema validates asynchronously', async () => {
    const schema: StandardSchemaV1<unknown, number> = {
      '~standard': {
        version: 1,
        vendor: 'async',
        validate: async (x) =>
          typeof x === 'number' ? { value: x * 2 } : { issues: [{ message: 'NaN' }] },
      },
    }
    const validator = compile(standardAdapter(schema))
    expect(validator.compiled).toBe(false)
    await expect(validator.validate(2, false)).resolves.toEqual({ success: true, data: 4 })
    await expect(validator.validate('x', true)).resolves.toEqual({
      success: false,
      issues: [{ path: [], message: 'NaN', code: 'invalid' }],
    })
  })

  it('runs through compile natively, first issue only unless allErrors', () => {
    const validator = compile(standardAdapter(User))
    expect(validator.compiled).toBe(false)
    const bad = { name: 'A', age: 1, tags: [1] }
    const one = validator.validate(bad, false)
    const all = validator.validate(bad, true)
    expect(one).toMatchObject({ success: false, issues: [{ path: ['name'] }] })
    expect(all).toMatchObject({
      success: false,
      issues: [{ path: ['name'] }, { path: ['tags', 0] }],
    })
  })

  it('rejects what is not a Standard Schema', () => {
    expect(isStandardSchema({ '~standard': { version: 2, validate() {} } })).toBe(false)
    expect(isStandardSchema(null)).toBe(false)
    expect(() => standardAdapter({} as never)).toThrow(/Standard Schema v1/)
  })
})

describe('toAdapter with Standard Schema', () => {
  it('resolves ArkType, and bare valibot and yup schemas, natively', async () => {
    expect(toAdapter(User).library).toBe('standard-schema')
    const vs = v.object({ n: v.number() })
    expect(toAdapter(vs).library).toBe('standard-schema')
    expect(toAdapter(vs).parse({ n: 1, x: 2 })).toEqual({ success: true, data: { n: 1 } })
    const ys = y.object({ n: y.number(), deep: y.object({ m: y.string() }) })
    // Before yup 1.7 a yup schema is no Standard Schema object (test/support/peer-features.ts).
    if (!yupIsStandard) {
      expect(() => toAdapter(ys)).toThrow(/needs yup 1\.7 or later.*yupAdapter/)
      return
    }
    // yup's own Standard Schema validate is async and keeps unknown keys; a bare yup schema is
    // parsed as yupAdapter parses it: synchronously, unknown keys removed at every depth.
    expect(toAdapter(ys).parse({ n: '5', x: 1, deep: { m: 'a', secret: 's' } })).toEqual({
      success: true,
      data: { n: 5, deep: { m: 'a' } },
    })
    await expect(ys['~standard'].validate({ n: 1, x: 1 })).resolves.toEqual({
      value: { n: 1, x: 1, deep: {} },
    })
  })

  it.runIf(yupIsStandard)(
    'gives a bare yup schema value-free messages, and a 422 for input its casts cannot read',
    () => {
      const ys = y.object({ n: y.number(), s: y.string().trim() })
      expect(toAdapter(ys).parse({ n: 'SECRET' }, true)).toEqual({
        success: false,
        issues: [{ path: ['n'], message: 'n must be a `number` type', code: 'typeError' }],
      })
      expect(toAdapter(ys).parse({ s: { toString: 1 } }, true)).toEqual({
        success: false,
        issues: [{ path: [], message: 'Invalid value', code: 'typeError' }],
      })
    },
  )

  it('knows an async valibot schema answers asynchronously, and a bare yup schema does not', () => {
    if (yupIsStandard) expect(toAdapter(y.object({ n: y.number() })).async).toBe(false)
    expect(toAdapter(v.objectAsync({ n: v.number() })).async).toBe(true)
    expect(toAdapter(v.object({ n: v.number() })).async).toBe(false)
    expect(toAdapter(User).async).toBe(false)
  })

  it('keeps a bare valibot schema (native) and its valibotAdapter (compiled) apart', () => {
    const vs = v.object({ n: v.number() })
    expect(compile(toAdapter(vs)).compiled).toBe(false)
    expect(compile(valibotAdapter(vs)).compiled).toBe(true)
    expect(compile(toAdapter(vs)).compiled).toBe(false)
  })

  it('still sends zod schemas, which implement Standard Schema too, to zodAdapter', () => {
    const s = z.string()
    expect(isStandardSchema(s)).toBe(true)
    expect(toAdapter(s).library).toBe('zod')
    expect(toAdapter(s).ir).toBeDefined()
  })
})
