import { describe, expect, it } from 'vitest'
import { resolveConfig, resolveExposure } from '../../../src/runtime/middleware/resolve-config.js'

describe('resolveConfig: request ID, validation and includeRequestId', () => {
  it('applies the defaults of shapeguard()', () => {
    const c = resolveConfig({ debug: true })
    expect(c.requestId).toEqual({ enabled: true, header: 'x-request-id', generator: undefined })
    expect(c.validation.trim).toBe(false)
    expect(c.validation.lowercase).toBe(false)
    expect(c.validation.exposure).toEqual({
      fieldName: true,
      message: true,
      enumValues: true,
      schemaCodes: false,
    })
    expect(c.validation.limits).toEqual({
      maxDepth: 20,
      maxArrayLength: 1000,
      maxStringLength: 10000,
    })
    expect(c.response.includeRequestId).toBe(false)
    expect(resolveConfig({ debug: false }).validation.exposure.enumValues).toBe(false)
  })

  it('takes every option, lower-casing the header name', () => {
    const generator = () => 'x'
    const c = resolveConfig({
      requestId: { header: 'X-Trace', generator },
      validation: {
        strings: { trim: true, lowercase: true },
        exposeEnumValues: true,
        exposeSchemaCodes: true,
        limits: { maxDepth: 5 },
      },
      response: { includeRequestId: true },
      debug: false,
    })
    expect(c.requestId).toEqual({ enabled: true, header: 'x-trace', generator })
    expect(c.validation.exposure).toMatchObject({ enumValues: true, schemaCodes: true })
    expect(c.validation.limits.maxDepth).toBe(5)
    expect(c.response.includeRequestId).toBe(true)
  })

  it('throws at mount time naming a bad option', () => {
    expect(() => resolveConfig({ validation: { exposeFieldName: 'no' as never } })).toThrow(
      /validation\.exposeFieldName: must be a boolean/,
    )
    expect(() => resolveConfig({ validation: { strings: { trim: 1 as never } } })).toThrow(
      /validation\.strings\.trim/,
    )
    expect(() => resolveConfig({ validation: { limits: { maxDepth: 0 } } })).toThrow(/maxDepth/)
    expect(() => resolveConfig({ requestId: { header: '' } })).toThrow(/requestId\.header/)
    expect(() => resolveConfig({ response: { includeRequestId: 'y' as never } })).toThrow(
      /response\.includeRequestId/,
    )
  })
})

describe('resolveExposure', () => {
  it('returns the base itself when nothing is overridden', () => {
    const base = resolveConfig({ debug: true }).validation.exposure
    expect(resolveExposure(undefined, base, 'sanitize')).toBe(base)
    expect(resolveExposure({}, base, 'sanitize')).toBe(base)
    expect(resolveExposure({ exposeMessage: false }, base, 'sanitize')).toEqual({
      ...base,
      message: false,
    })
  })
})
