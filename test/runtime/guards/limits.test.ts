import { describe, expect, it } from 'vitest'
import { defaultLimits, resolveLimits } from '../../../src/runtime/guards/limits.js'
import { misuse } from '../../support/misuse.js'

describe('resolveLimits', () => {
  it('gives the default limits when nothing is set', () => {
    expect(resolveLimits()).toEqual({ maxDepth: 20, maxArrayLength: 1000, maxStringLength: 10000 })
    expect(resolveLimits({}, {})).toEqual(defaultLimits)
  })

  it('lets the route override the global limits, field by field', () => {
    expect(resolveLimits({ maxDepth: 5, maxArrayLength: 50 }, { maxArrayLength: 7 })).toEqual({
      maxDepth: 5,
      maxArrayLength: 7,
      maxStringLength: 10000,
    })
    expect(resolveLimits(undefined, { maxStringLength: 3 })).toEqual({
      maxDepth: 20,
      maxArrayLength: 1000,
      maxStringLength: 3,
    })
  })

  it('returns frozen limits', () => {
    expect(Object.isFrozen(resolveLimits())).toBe(true)
    expect(Object.isFrozen(resolveLimits({ maxDepth: 3 }))).toBe(true)
  })

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '20', null, 2 ** 53])(
    'rejects %s at mount time, naming the option',
    (bad) => {
      expect(() => resolveLimits(undefined, { maxDepth: bad as number })).toThrow(
        misuse('SG_ERR_INVALID_OPTION', 'shapeguard: limits.maxDepth: must be a positive integer'),
      )
      expect(() => resolveLimits({ maxArrayLength: bad as number })).toThrow(
        misuse(
          'SG_ERR_INVALID_OPTION',
          'shapeguard: validation.limits.maxArrayLength: must be a positive integer',
        ),
      )
      expect(() => resolveLimits({ maxStringLength: bad as number })).toThrow(TypeError)
    },
  )

  it('rejects a bad global value even when the route overrides it', () => {
    expect(() => resolveLimits({ maxDepth: 0 }, { maxDepth: 5 })).toThrow(
      'validation.limits.maxDepth: must be a positive integer',
    )
  })

  it('bounds maxDepth so the walk can never overflow the stack', () => {
    expect(resolveLimits(undefined, { maxDepth: 1000 }).maxDepth).toBe(1000)
    expect(() => resolveLimits(undefined, { maxDepth: 1001 })).toThrow(
      misuse('SG_ERR_INVALID_OPTION', 'shapeguard: limits.maxDepth: must be at most 1000'),
    )
  })

  it('rejects unknown keys and non-objects', () => {
    expect(() => resolveLimits({ maxdepth: 3 } as never)).toThrow(
      'shapeguard: validation.limits: maxdepth is not an option (maxDepth, maxArrayLength, maxStringLength)',
    )
    expect(() => resolveLimits(undefined, 5 as never)).toThrow(
      misuse('SG_ERR_INVALID_OPTION', 'shapeguard: limits: must be an object'),
    )
    expect(() => resolveLimits(null as never)).toThrow('validation.limits: must be an object')
  })

  it('treats an undefined field as not set', () => {
    expect(
      resolveLimits({ maxDepth: undefined } as never, { maxDepth: undefined } as never),
    ).toEqual(defaultLimits)
  })
})
