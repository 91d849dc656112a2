import { describe, expect, it } from 'vitest'
import { contextOf, peekContext } from '../../../src/runtime/core/context.js'

describe('contextOf', () => {
  it('creates one context per response and keeps req.res and res.req', () => {
    const req: Record<string, unknown> = {}
    const res: Record<string, unknown> = { req }
    req.res = res
    expect(peekContext(res as never)).toBeUndefined()
    const context = contextOf(res as never)
    expect(contextOf(res as never)).toBe(context)
    expect(peekContext(res as never)).toBe(context)
    expect(req.res).toBe(res)
    expect(res.req).toBe(req)
  })
})
