import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  chooseDictionaryMode,
  dictionaryMode,
  dictionaryModeStep,
  toDictionaryMode,
  useDictionaryMode,
} from '../../../src/runtime/core/dictionary-mode.js'

// Where V8 is older than 13, useDictionaryMode() switches the request and the response to
// dictionary mode, by deleting `req.res` and `res.req` and defining them again: the switch is
// called here directly, so it is tested on every line (test/e2e/dictionary-mode.test.ts checks the
// mode). The switch is seen here by its one trace in plain JavaScript: the property it deletes and
// defines again moves to the end of the object's keys.
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

describe('useDictionaryMode', () => {
  // `req.res` and `res.req` first, as Express sets them, then another property.
  const pair = () => {
    const req: Record<string, unknown> = {}
    const res: Record<string, unknown> = { req }
    req.res = res
    req.url = '/'
    res.statusCode = 200
    return { req, res }
  }
  const switched = ({ req, res }: ReturnType<typeof pair>) =>
    Object.keys(req).at(-1) === 'res' && Object.keys(res).at(-1) === 'req'

  afterEach(() => {
    vi.unstubAllEnvs()
    vi.resetModules()
  })

  it('is the switch where the line gains from it, else a no-op', () => {
    const on = pair()
    dictionaryModeStep(true)(on.req as never, on.res as never)
    expect(switched(on)).toBe(true)
    const off = pair()
    dictionaryModeStep(false)(off.req as never, off.res as never)
    expect(switched(off)).toBe(false)
    const here = pair()
    useDictionaryMode(here.req as never, here.res as never)
    expect(switched(here)).toBe(dictionaryMode)
  })

  it('is the only switch: creating the request context leaves both objects as they are', async () => {
    // Switched on whatever the line, in a fresh copy of the modules that reads the environment.
    vi.stubEnv('SHAPEGUARD_DICTIONARY_MODE', '1')
    vi.resetModules()
    const context = await import('../../../src/runtime/core/context.js')
    const mode = await import('../../../src/runtime/core/dictionary-mode.js')
    expect(mode.dictionaryMode).toBe(true)
    const created = pair()
    context.contextOf(created.res as never)
    expect(switched(created)).toBe(false)
    mode.useDictionaryMode(created.req as never, created.res as never)
    expect(switched(created)).toBe(true)
  })
})
