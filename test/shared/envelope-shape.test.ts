import { describe, expect, it } from 'vitest'
import { envelopeNames, parseShape, type ShapeFault } from '../../src/shared/envelope-shape.js'

const refuse = (fault: ShapeFault): never => {
  throw Object.assign(new Error('refused'), { fault })
}
const faultOf = (shape: object, dataPaths: boolean) => {
  try {
    parseShape(shape, { dataPaths }, refuse)
  } catch (error) {
    return (error as { fault: ShapeFault }).fault
  }
  throw new Error('expected a fault')
}

describe('parseShape', () => {
  it('reads each field, in order, with what it holds', () => {
    expect(
      parseShape(
        { ok: '{success}', msg: '{message}', result: '{data}' },
        { dataPaths: false },
        refuse,
      ),
    ).toEqual([
      { name: 'ok', holds: 'success', path: undefined },
      { name: 'msg', holds: 'message', path: undefined },
      { name: 'result', holds: 'data', path: undefined },
    ])
  })

  it('reads {data.<path>} only where paths are allowed (withShape)', () => {
    expect(parseShape({ id: '{data.user.id}' }, { dataPaths: true }, refuse)).toEqual([
      { name: 'id', holds: 'data', path: ['user', 'id'] },
    ])
    expect(faultOf({ id: '{data.user.id}' }, false)).toEqual({
      kind: 'token',
      field: 'id',
      token: '{data.user.id}',
    })
  })

  it('refuses a value that is not a token, and a field named __proto__ whatever its token', () => {
    for (const token of ['data', '{data.}', '{body.id}', 1, null, 'constructor'])
      expect(faultOf({ x: token }, true)).toEqual({ kind: 'token', field: 'x', token })
    expect(faultOf(JSON.parse('{"__proto__":"{data}"}'), true)).toEqual({ kind: 'proto' })
    expect(faultOf(JSON.parse('{"__proto__":"nope"}'), false)).toEqual({ kind: 'proto' })
  })
})

describe('envelopeNames', () => {
  it("names the default envelope's fields without a shape", () => {
    expect(envelopeNames(undefined)).toEqual({
      success: ['success'],
      message: ['message'],
      data: ['data'],
    })
  })

  it('names the fields of a shape by what they hold', () => {
    expect(envelopeNames({ ok: '{success}', result: '{data}', also: '{data}' })).toEqual({
      success: ['ok'],
      message: [],
      data: ['result', 'also'],
    })
  })
})
