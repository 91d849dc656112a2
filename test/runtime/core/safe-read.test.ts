import { describe, expect, it } from 'vitest'
import { stackOf } from '../../../src/runtime/core/safe-read.js'

describe('stackOf', () => {
  it("reads V8's stack, an own accessor since Node 22 and a data property before", () => {
    const error = new TypeError('boom')
    expect(stackOf(error)).toMatch(/^TypeError: boom\n\s+at /)
    expect(stackOf(Object.assign(new Error('x'), { stack: 'set by hand' }))).toBe('set by hand')
    const captured = {}
    Error.captureStackTrace(captured)
    expect(stackOf(captured)).toMatch(/^Error.*\n\s+at /)
  })

  it('runs no other getter and survives a hostile Proxy', () => {
    let ran = 0
    const getter = Object.defineProperty(new Error('x'), 'stack', {
      get() {
        ran++
        return 'from a getter'
      },
    })
    expect(stackOf(getter)).toBeUndefined()
    expect(ran).toBe(0)
    const trap = () => {
      throw new Error('trap')
    }
    const proxy = new Proxy(new Error('x'), {
      getOwnPropertyDescriptor: trap,
      getPrototypeOf: trap,
    })
    expect(stackOf(proxy)).toBeUndefined()
    expect(stackOf(null)).toBeUndefined()
    expect(stackOf('text')).toBeUndefined()
  })
})
