import { describe, expect, it } from 'vitest'
import { contextOf } from '../../../src/runtime/context/context.js'
import { mockResponse } from '../../../src/testing/index.js'

describe('response helpers', () => {
  it('pass data through the context prepare seam before the envelope is built', () => {
    const res = mockResponse()
    contextOf(res).prepare = (data) => ({ stripped: true, from: data })
    res.ok({ data: { secret: 1 } })
    expect(res._result().body).toEqual({
      success: true,
      message: '',
      data: { stripped: true, from: { secret: 1 } },
    })
  })

  it('paginated rounds pages up and freezes its data object but not the items', () => {
    const res = mockResponse()
    const items = [{ id: 1 }]
    res.paginated({ data: items, total: 21, page: 1, limit: 10 })
    const data = (res._result().body as { data: { pages: number; items: unknown } }).data
    expect(data.pages).toBe(3)
    expect(Object.isFrozen(data)).toBe(true)
    expect(data.items).toBe(items)
    expect(Object.isFrozen(items)).toBe(false)
  })

  it('fail keeps details given as data and null when absent', () => {
    const res = mockResponse()
    res.fail({ code: 'X', message: 'x', status: 409 })
    expect(res._result()).toMatchObject({
      statusCode: 409,
      body: { error: { code: 'X', message: 'x', details: null } },
    })
  })
})
