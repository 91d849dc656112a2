import { describe, expect, it } from 'vitest'
import { contextOf, peekContext, toDictionaryMode } from '../../../src/runtime/core/context.js'
import { chooseDictionaryMode } from '../../../src/runtime/core/dictionary-mode.js'

// Where V8 is older than 13, contextOf() also switches the request and the response to dictionary
// mode, by deleting `req.res` and `res.req` and defining them again: the switch is called here
// directly, so it is tested on every line (test/e2e/dictionary-mode.test.ts checks the mode).
const switchBoth = (req: object, res: object) => {
  toDictionaryMode(req, 'res')
  toDictionaryMode(res, 'req')
}

describe('chooseDictionaryMode', () => {
  it('switches on V8 12 and before, not on V8 13 and later, unless the environment says', () => {
    expect(chooseDictionaryMode('12.4.254.21-node.33', undefined)).toBe(true)
    expect(chooseDictionaryMode('11.3.244.8-node.25', undefined)).toBe(true)
    expect(chooseDictionaryMode('13.6.233.10-node.28', undefined)).toBe(false)
    expect(chooseDictionaryMode('14.2.1-node.5', undefined)).toBe(false)
    expect(chooseDictionaryMode(undefined, undefined)).toBe(false)
    expect(chooseDictionaryMode('13.6.233.10-node.28', '1')).toBe(true)
    expect(chooseDictionaryMode('12.4.254.21-node.33', '0')).toBe(false)
    // Any other value leaves the choice to the version.
    expect(chooseDictionaryMode('13.6.233.10-node.28', 'yes')).toBe(false)
  })
})

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

describe('toDictionaryMode', () => {
  it('keeps req.res and res.req, values and attributes, on plain objects', () => {
    const req: Record<string, unknown> = { url: '/', method: 'GET' }
    const res: Record<string, unknown> = { statusCode: 200 }
    req.res = res
    res.req = req
    switchBoth(req, res)
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
    switchBoth(req, res)
    expect(req.res).toBe(res)
    expect(Object.keys(req)).toEqual(['res'])
  })

  it('leaves an accessor an accessor', () => {
    const res: Record<string, unknown> = {}
    const get = () => res
    const req = Object.defineProperty({}, 'res', { get, configurable: true, enumerable: false })
    res.req = req
    switchBoth(req, res)
    expect(Object.getOwnPropertyDescriptor(req, 'res')).toEqual({
      get,
      set: undefined,
      enumerable: false,
      configurable: true,
    })
  })
})
