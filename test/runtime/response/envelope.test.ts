import { describe, expect, it } from 'vitest'
import { compileShape, defaultShape } from '../../../src/runtime/response/envelope.js'

describe('compileShape', () => {
  it('without a shape gives the default envelope, frozen', () => {
    const shape = compileShape(undefined)
    expect(shape).toBe(defaultShape)
    const body = shape.success([1], 'm')
    expect(body).toEqual({ success: true, message: 'm', data: [1] })
    expect(Object.isFrozen(body)).toBe(true)
    const error = shape.error('X', 'x', undefined)
    expect(error).toEqual({
      success: false,
      message: 'x',
      error: { code: 'X', message: 'x', details: null },
    })
    expect(Object.isFrozen(error.error)).toBe(true)
  })

  it('renames fields in the order given', () => {
    const shape = compileShape({ status: '{success}', payload: '{data}' })
    expect(Object.keys(shape.success(1, 'm'))).toEqual(['status', 'payload'])
  })

  it('keeps error code, message and details under the error field of a renamed envelope', () => {
    const shape = compileShape({ ok: '{success}', result: '{data}', msg: '{message}' })
    expect(shape.error('NOPE', 'No', { a: 1 })).toEqual({
      ok: false,
      msg: 'No',
      error: { code: 'NOPE', message: 'No', details: { a: 1 } },
    })
  })

  it('refuses a field named __proto__ and a token Object.prototype holds', () => {
    const proto = JSON.parse('{"__proto__": "{data}", "ok": "{success}"}')
    expect(() => compileShape(proto)).toThrow('response.shape: cannot name a field __proto__')
    for (const token of ['constructor', 'toString', '__proto__'])
      expect(() => compileShape({ x: token } as never)).toThrow(
        'response.shape.x: must be one of {success}, {data}, {message}',
      )
  })

  it('does not freeze the caller data', () => {
    const data = { a: [1] }
    compileShape({ result: '{data}' }).success(data, '')
    expect(Object.isFrozen(data)).toBe(false)
  })
})
