import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import * as y from 'yup'
import { z } from 'zod'
import { valibotAdapter } from '../../../src/adapters/valibot/index.js'
import { yupAdapter } from '../../../src/adapters/yup/index.js'
import { defineRoute, validate } from '../../../src/index.js'
import { configureLogger, logger, resetLogger } from '../../../src/runtime/logging/logger.js'

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

describe('validate() with an author-written pattern', () => {
  it('warns once, naming the part, the field, the pattern and where the route is', () => {
    validate({ body: z.object({ user: z.object({ name: z.string().regex(/^(a+)+$/) }) }) })
    expect(warn).toHaveBeenCalledTimes(1)
    const line = String(warn.mock.calls[0]![0])
    expect(line).toContain('body.user.name')
    expect(line).toContain('/^(a+)+$/')
    expect(line).toContain('exponential')
    expect(line).toContain('warn-risky-patterns.test.ts')
  })

  it('warns for valibot and yup patterns too, inside arrays and queries', () => {
    validate({
      query: valibotAdapter(v.object({ q: v.pipe(v.string(), v.regex(/\s+$/)) })),
      body: yupAdapter(y.object({ tags: y.array(y.string().matches(/^(\w+\s?)+$/)) })),
    })
    const lines = warn.mock.calls.map((c) => String(c[0]))
    expect(lines).toHaveLength(2)
    expect(lines.some((l) => l.includes('query.q') && l.includes('polynomial'))).toBe(true)
    expect(lines.some((l) => l.includes('body.tags.*') && l.includes('exponential'))).toBe(true)
  })

  it('warns for a pattern on record keys, which are request data too', () => {
    validate({ body: z.object({ labels: z.record(z.string().regex(/^(a|a)+$/), z.string()) }) })
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]![0])).toContain('body.labels')
  })

  it('says nothing for safe patterns or the libraries’ own formats', () => {
    defineRoute({
      body: z.object({
        zip: z.string().regex(/^\d{5}(?:-\d{4})?$/),
        slug: z.string().regex(/^[a-z]+(?:-[a-z]+)*$/),
        email: z.email(),
        site: z.url(),
      }),
      query: yupAdapter(y.object({ site: y.string().url() })),
    })
    expect(warn).not.toHaveBeenCalled()
  })

  it('says nothing in production', () => {
    vi.stubEnv('NODE_ENV', 'production')
    validate({ body: z.object({ name: z.string().regex(/^(a+)+$/) }) })
    expect(warn).not.toHaveBeenCalled()
  })
})
