import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import * as zm from 'zod/mini'
import { toAdapter } from '../../src/adapters/resolve.js'
import { zodAdapter } from '../../src/adapters/zod/index.js'
import { isAdapter } from '../../src/engine/index.js'

describe('toAdapter', () => {
  it('wraps a zod schema (classic or mini) once', () => {
    const s = z.string()
    const a = toAdapter(s)
    expect(isAdapter(a)).toBe(true)
    expect(a.library).toBe('zod')
    expect(toAdapter(s)).toBe(a)
    expect(toAdapter(zm.string()).parse('x')).toEqual({ success: true, data: 'x' })
  })

  it('returns an adapter as is', () => {
    const a = zodAdapter(z.number())
    expect(toAdapter(a)).toBe(a)
  })

  it('throws a TypeError naming what it received', () => {
    expect(() => toAdapter({ type: 'string' })).toThrow(TypeError)
    expect(() => toAdapter({ type: 'string' })).toThrow(
      /expected a zod schema or a schema adapter.*object with keys type/,
    )
    expect(() => toAdapter(null)).toThrow(/received null/)
    expect(() => zodAdapter('x' as never)).toThrow(/expected a zod 4 schema/)
  })

  it('names yupAdapter for a yup schema that predates Standard Schema (yup before 1.7)', () => {
    const beforeStandard = { __isYupSchema__: true, type: 'object', fields: {} }
    expect(() => toAdapter(beforeStandard)).toThrow(TypeError)
    expect(() => toAdapter(beforeStandard)).toThrow(
      /bare yup schema needs yup 1\.7 or later.*yupAdapter\(schema\) from 'shapeguard\/adapters\/yup'/,
    )
  })
})
