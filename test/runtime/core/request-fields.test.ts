import { describe, expect, it } from 'vitest'
import { setRequestField } from '../../../src/runtime/core/request-fields.js'

const setQuery = (req: object, value: unknown) => setRequestField(req as never, 'query', value)

// On an Express request, see test/e2e/request-fields.test.ts.
describe('setRequestField', () => {
  it('shadows a prototype getter with an own property (Express 5)', () => {
    const proto = {
      get query() {
        return { fresh: true }
      },
    }
    const req = Object.create(proto)
    setQuery(req, { page: 1 })
    expect(req.query).toEqual({ page: 1 })
    setQuery(req, { page: 2 })
    expect(req.query).toEqual({ page: 2 })
  })

  it('leaves the guarded query read only, as the getter without a setter was', () => {
    const req = Object.create({
      get query() {
        return {}
      },
    })
    setQuery(req, { page: 1 })
    expect(() => {
      req.query = { page: 9 }
    }).toThrow(TypeError)
    expect(req.query).toEqual({ page: 1 })
  })

  it('keeps req.id writable for another request-ID middleware', () => {
    const req = {} as { id?: unknown }
    setRequestField(req as never, 'id', 'req_1')
    req.id = 'other'
    expect(req.id).toBe('other')
    setRequestField(req as never, 'id', 'req_2')
    expect(req.id).toBe('req_2')
  })

  it('gives req.id the attributes of a plain property, and shadows an inherited one', () => {
    const req = {}
    setRequestField(req as never, 'id', 'req_1')
    expect(Object.getOwnPropertyDescriptor(req, 'id')).toEqual({
      value: 'req_1',
      writable: true,
      enumerable: true,
      configurable: true,
    })
    let set = 0
    const inherited = Object.create({
      get id() {
        return 'inherited'
      },
      set id(_: unknown) {
        set++
      },
    })
    setRequestField(inherited, 'id', 'req_2')
    expect(inherited.id).toBe('req_2')
    expect(set).toBe(0)
  })

  it('writes an own property (Express 4)', () => {
    const req = { query: { a: '1' } }
    setQuery(req as never, { a: 1 })
    expect(req.query).toEqual({ a: 1 })
  })
})
