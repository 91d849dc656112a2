import { afterEach, describe, expect, it, vi } from 'vitest'
import { resolveConfig } from '../../../src/runtime/middleware/resolve-config.js'

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('resolveConfig', () => {
  it('applies the defaults into one frozen object', () => {
    const config = resolveConfig()
    expect(Object.isFrozen(config)).toBe(true)
    expect(config.response.statusCodes).toEqual({
      GET: 200,
      POST: 201,
      PUT: 200,
      PATCH: 200,
      DELETE: 200,
    })
    expect(config.errors).toEqual({
      fallbackMessage: 'Something went wrong',
      onError: undefined,
      format: 'envelope',
      problemTypeBase: undefined,
    })
  })

  it('reads debug from NODE_ENV when called, and an explicit debug wins', () => {
    vi.stubEnv('NODE_ENV', 'production')
    expect(resolveConfig().debug).toBe(false)
    expect(resolveConfig({ debug: true }).debug).toBe(true)
    vi.stubEnv('NODE_ENV', 'development')
    expect(resolveConfig().debug).toBe(true)
  })

  it('warns of a missing response schema in development only, unless turned off', () => {
    const warns = (config: Parameters<typeof resolveConfig>[0]) =>
      resolveConfig(config).warnings.missingResponseSchema
    expect(warns({ debug: true })).toBe(true)
    expect(warns({ debug: true, warnings: { missingResponseSchema: false } })).toBe(false)
    expect(warns({ debug: false })).toBe(false)
    expect(warns({ debug: false, warnings: { missingResponseSchema: true } })).toBe(false)
  })

  it('merges response.statusCodes over the defaults', () => {
    const config = resolveConfig({ response: { statusCodes: { POST: 200 } } })
    expect(config.response.statusCodes.POST).toBe(200)
    expect(config.response.statusCodes.GET).toBe(200)
  })

  it.each([
    [
      { response: { statusCodes: { TRACE: 200 } } },
      /response\.statusCodes: TRACE is not an option/,
    ],
    [{ response: { statusCodes: { GET: 404 } } }, /response\.statusCodes\.GET: must be a 2xx/],
    [{ response: { shape: { data: 'data' } } }, /response\.shape\.data/],
    [{ errors: { onError: 'log' } }, /errors\.onError: must be a function/],
    [{ errors: { fallbackMessage: 7 } }, /errors\.fallbackMessage: must be a string/],
  ])('throws at mount time naming the bad option (%#)', (config, message) => {
    expect(() => resolveConfig(config as never)).toThrow(message)
  })
})
