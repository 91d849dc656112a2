import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { validate } from '../../../src/index.js'
import { configureLogger, logger, resetLogger } from '../../../src/runtime/logging/logger.js'
import { allowCompileFallbacks, uncompilableAdapter } from '../../support/compile-fallbacks.js'

let warn: ReturnType<typeof vi.fn>

beforeEach(() => {
  configureLogger({ silent: false })
  warn = vi.fn()
  vi.spyOn(logger, 'warn').mockImplementation(warn as never)
})

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
  resetLogger()
})

describe('validate() with a schema whose IR does not compile', () => {
  it('warns once in development, naming the part and the library', () => {
    allowCompileFallbacks(2)
    validate({ body: uncompilableAdapter(), response: uncompilableAdapter() })
    const lines = warn.mock.calls.map((c) => String(c[0])).sort()
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^shapeguard: the body schema \(hand-written\) could not be compiled/)
    expect(lines[1]).toMatch(/^shapeguard: the response schema \(hand-written\)/)
  })

  it('says nothing in production', () => {
    vi.stubEnv('NODE_ENV', 'production')
    allowCompileFallbacks(1)
    validate({ query: uncompilableAdapter() })
    expect(warn).not.toHaveBeenCalled()
  })
})
