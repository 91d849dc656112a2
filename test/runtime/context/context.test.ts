import { describe, expect, it } from 'vitest'
import { contextOf, peekContext } from '../../../src/runtime/context/context.js'

// contextOf() also switches the request and the response to dictionary mode by deleting `req.res`
// and `res.req` and defining them again (test/e2e/dictionary-mode.test.ts checks the mode itself).
describe('contextOf', () => {
  it('keeps req.res and res.req, values and attributes, on plain objects', () => {
    const req: Record<string, unknown> = { url: '/', method: 'GET' }
    const res: Record<string, unknown> = { statusCode: 200 }
    req.res = res
    res.req = req
    const context = contextOf(res as never)
    expect(contextOf(res as never)).toBe(context)
    expect(peekContext(res as never)).toBe(context)
    expect(Object.getOwnPropertyDescriptor(req, 'res')).toEqual({
      value: res,
      writable: true,
      enumerable: true,
      configurable: true,
    })
    expect(Object.getOwnPropertyDescriptor(res, 'req')).toEqual({
      value: req,
      writable: true,
      enumerable: true,
      configurable: true,
    })
  })

  it('leaves an object that cannot take a property back as it is', () => {
    const res: Record<string, unknown> = {}
    const req = Object.preventExtensions({ res })
    res.req = req
    contextOf(res as never)
    expect(req.res).toBe(res)
    expect(Object.keys(req)).toEqual(['res'])
  })

  it('leaves an accessor an accessor', () => {
    const res: Record<string, unknown> = {}
    const get = () => res
    const req = Object.defineProperty({}, 'res', { get, configurable: true, enumerable: false })
    res.req = req
    contextOf(res as never)
    expect(Object.getOwnPropertyDescriptor(req, 'res')).toEqual({
      get,
      set: undefined,
      enumerable: false,
      configurable: true,
    })
  })
})
