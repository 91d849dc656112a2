import type { Response } from 'express'
import { describe, expectTypeOf, it } from 'vitest'
import { AppError, type PaginatedData, type ResponseSent } from '../../../src/index.js'
import type { MockResponse } from '../../../src/testing/index.js'

describe('response helpers on Express.Response', () => {
  it('are typed on every response after importing shapeguard', () => {
    expectTypeOf<Response['ok']>().toBeFunction()
    expectTypeOf<Response['fail']>().parameter(0).toHaveProperty('code').toEqualTypeOf<string>()
    expectTypeOf<MockResponse['paginated']>().toBeFunction()
  })

  it('require the fields each helper needs', () => {
    const res = {} as Response
    // @ts-expect-error paginated needs total, page and limit
    res.paginated({ data: [] })
    // @ts-expect-error fail needs a code
    res.fail({ message: 'x' })
    // @ts-expect-error status is a number
    res.ok({ data: 1, status: '200' })
  })

  it('are typed as what they return', () => {
    const res = {} as Response
    // undefined once sent; a promise that settles once sent with an asynchronous response schema
    expectTypeOf<ResponseSent>().toEqualTypeOf<Promise<void> | undefined>()
    expectTypeOf(res.ok({ data: 1 })).toEqualTypeOf<ResponseSent>()
    expectTypeOf(res.created()).toEqualTypeOf<ResponseSent>()
    expectTypeOf(res.accepted({ data: 'x' })).toEqualTypeOf<ResponseSent>()
    expectTypeOf(
      res.paginated({ data: [], total: 0, page: 1, limit: 10 }),
    ).toEqualTypeOf<ResponseSent>()
    expectTypeOf(
      res.cursorPaginated({ data: [], nextCursor: null, hasMore: false }),
    ).toEqualTypeOf<ResponseSent>()
    expectTypeOf(res.noContent()).toBeVoid()
    expectTypeOf(res.fail({ code: 'X', message: 'x' })).toBeVoid()
  })

  it('PaginatedData describes the data of res.paginated', () => {
    expectTypeOf<PaginatedData<number>['items']>().toEqualTypeOf<readonly number[]>()
  })
})

describe('AppError types', () => {
  it('define types the details of its factory', () => {
    const OutOfStock = AppError.define<{ sku: string }>('OUT_OF_STOCK', 409)
    expectTypeOf(OutOfStock({ sku: 'a' }).details).toEqualTypeOf<{ sku: string } | null>()
    // @ts-expect-error details must match
    OutOfStock({ id: 1 })
  })
})
