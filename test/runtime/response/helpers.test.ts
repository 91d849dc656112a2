import { describe, expect, it, vi } from 'vitest'
import { standardAdapter } from '../../../src/adapters/standard/index.js'
import { contextOf } from '../../../src/runtime/core/context.js'
import { resolveConfig } from '../../../src/runtime/middleware/resolve-config.js'
import { installHelpers } from '../../../src/runtime/response/helpers.js'
import { responseStripper } from '../../../src/runtime/response/strip-response.js'
import { mockResponse } from '../../../src/testing/index.js'

describe('response helpers', () => {
  it('pass data through the context stripper before the envelope is built', () => {
    const res = mockResponse()
    contextOf(res).stripper = (data) => ({ stripped: true, from: data })
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

  it('answer undefined once sent, and a promise that never rejects with an asynchronous schema', async () => {
    const sync = mockResponse()
    contextOf(sync).stripper = (data) => data
    expect(sync.ok({ data: 1 })).toBeUndefined()
    // Keeps `id` when it is a number, else fails; answers later.
    const stripper = responseStripper(
      standardAdapter({
        '~standard': {
          version: 1,
          vendor: 'test',
          validate: async (value: unknown) => {
            const id = (value as { id?: unknown }).id
            return typeof id === 'number' ? { value: { id } } : { issues: [{ message: 'no' }] }
          },
        },
      }),
    )
    const res = mockResponse()
    contextOf(res).stripper = stripper
    const pending = res.created({ data: { id: 1, secret: 'x' } }) as unknown
    expect(res.headersSent).toBe(false)
    await expect(pending).resolves.toBeUndefined()
    expect(res._result()).toMatchObject({ statusCode: 201, body: { data: { id: 1 } } })
    // Without a route's next to take the failure, the fallback 500 goes out; still no rejection.
    const bad = mockResponse()
    contextOf(bad).stripper = stripper
    await expect(bad.ok({ data: { id: 'x' } }) as unknown).resolves.toBeUndefined()
    expect(bad._result().statusCode).toBe(500)
    // In the app's error format.
    const problem = mockResponse({ config: { errors: { format: 'problem+json' } } })
    contextOf(problem).stripper = stripper
    await problem.ok({ data: { id: 'x' } })
    expect(problem._result()).toMatchObject({
      statusCode: 500,
      headers: { 'content-type': 'application/problem+json; charset=utf-8' },
    })
  })

  it('fail answers in problem details when the configuration says so', () => {
    const res = mockResponse({ config: { errors: { format: 'problem+json' } } })
    res.fail({ code: 'X', message: 'x', status: 409, details: { sku: 'A-1' } })
    expect(res._result()).toEqual({
      statusCode: 409,
      headers: { 'content-type': 'application/problem+json; charset=utf-8' },
      body: {
        type: 'about:blank',
        title: 'Conflict',
        status: 409,
        detail: 'x',
        code: 'X',
        sku: 'A-1',
      },
    })
  })

  it.each([200, 204, 302, 304, 399, 600, 404.5, Number.NaN, '404', null])(
    'fail refuses the status %s, naming the range, and sends nothing',
    (status) => {
      const res = mockResponse()
      expect(() => res.fail({ code: 'X', message: 'x', status: status as never })).toThrow(
        new TypeError(
          `shapeguard: res.fail(): status must be a number from 400 to 599${typeof status === 'string' ? ' (a number, not a string)' : ''}, e.g. 404; answer other statuses with res.ok(), res.status() or res.redirect()`,
        ),
      )
      expect(res._result()).toEqual({ statusCode: 200, body: undefined, headers: {} })
    },
  )

  it.each([
    ['the default', undefined, 400],
    ['400', 400, 400],
    ['599', 599, 599],
  ])('fail sends %s', (_, status, expected) => {
    const res = mockResponse()
    res.fail({ code: 'X', message: 'x', ...(status === undefined ? {} : { status }) })
    expect(res._result().statusCode).toBe(expected)
  })

  it.each(['envelope', 'problem+json'] as const)(
    'fail answers on a bare { status, json } double given the helpers (%s)',
    (format) => {
      const res = { status: vi.fn().mockReturnThis(), json: vi.fn() }
      installHelpers(res as never, resolveConfig({ errors: { format } }))
      ;(res as never as { fail: (o: object) => void }).fail({
        code: 'LOCKED',
        message: 'Locked',
        status: 423,
      })
      expect(res.status).toHaveBeenCalledWith(423)
      expect(res.json).toHaveBeenCalledWith(
        format === 'envelope'
          ? {
              success: false,
              message: 'Locked',
              error: { code: 'LOCKED', message: 'Locked', details: null },
            }
          : { type: 'about:blank', title: 'Locked', status: 423, detail: 'Locked', code: 'LOCKED' },
      )
    },
  )
})
