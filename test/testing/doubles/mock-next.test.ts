import { describe, expect, it } from 'vitest'
import { mockNext } from '../../../src/testing/index.js'
import { misuse } from '../../support/misuse.js'

describe('mockNext', () => {
  it('records that it was not called', () => {
    const next = mockNext()
    expect(next.called).toBe(false)
    expect(next.calls).toBe(0)
    expect(next.error).toBeUndefined()
  })

  it('records calls and the last argument', () => {
    const next = mockNext()
    next()
    expect(next.called).toBe(true)
    expect(next.error).toBeUndefined()
    const err = new Error('x')
    next(err)
    expect(next.calls).toBe(2)
    expect(next.error).toBe(err)
  })

  it('takes no options: an argument given from JavaScript is refused, not ignored', () => {
    expect(() => (mockNext as (o: unknown) => unknown)({ calls: 1 })).toThrow(
      misuse('SG_ERR_UNKNOWN_OPTION', 'shapeguard: mockNext(): takes no options'),
    )
    expect((mockNext as (o: unknown) => { called: boolean })(undefined).called).toBe(false)
  })
})
