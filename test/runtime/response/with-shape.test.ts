import { describe, expect, it } from 'vitest'
import { compileRouteShape } from '../../../src/runtime/response/route-shape.js'
import { withShape } from '../../../src/runtime/response/with-shape.js'
import { mockNext, mockRequest, mockResponse } from '../../../src/testing/index.js'
import { misuse } from '../../support/misuse.js'

describe('compileRouteShape', () => {
  it('resolves {data.<path>} through objects and arrays', () => {
    const shape = compileRouteShape({ id: '{data.user.id}', tag: '{data.tags.1}', all: '{data}' })
    if (shape.raw) throw new Error('expected a map')
    const data = { user: { id: 3 }, tags: ['a', 'b'] }
    expect(shape.build(data, '', () => {})).toEqual({ id: 3, tag: 'b', all: data })
  })

  it('reports each token that resolves to nothing, never inherited properties', () => {
    const shape = compileRouteShape({ a: '{data.missing}', b: '{data.toString}', c: '{data.x.y}' })
    if (shape.raw) throw new Error('expected a map')
    const missing: string[] = []
    shape.build({ x: null }, '', (token) => missing.push(token))
    expect(missing).toEqual(['{data.missing}', '{data.toString}', '{data.x.y}'])
  })

  it("'raw' is the raw shape", () => {
    expect(compileRouteShape('raw')).toEqual({ raw: true })
  })

  it.each([[{ a: 'data.id' }], [{ a: '{data.}' }], [{ a: 5 }], [null]])('throws on %j', (shape) => {
    expect(() => compileRouteShape(shape as never)).toThrow(/withShape/)
  })

  it('refuses a field named __proto__, as response.shape does (it would set a prototype)', () => {
    expect(() => compileRouteShape(JSON.parse('{"__proto__": "{data}"}'))).toThrow(
      misuse('SG_ERR_ENVELOPE_SHAPE', 'shapeguard: withShape(): cannot name a field __proto__'),
    )
  })
})

describe('withShape', () => {
  it('puts the route shape on the response for the helpers', () => {
    const res = mockResponse()
    const next = mockNext()
    withShape('raw')(mockRequest(), res, next)
    expect(next.called).toBe(true)
    res.ok({ data: 'alone' })
    expect(res._result().body).toBe('alone')
  })
})
