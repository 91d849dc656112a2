import express, { type Response } from 'express'
import request from 'supertest'
import { describe, expect, it, vi } from 'vitest'
import { standardAdapter } from '../../../src/adapters/standard/index.js'
import { handle, shapeguard } from '../../../src/index.js'
import { contextOf } from '../../../src/runtime/core/context.js'
import { resolveConfig } from '../../../src/runtime/middleware/resolve-config.js'
import { installHelpers } from '../../../src/runtime/response/helpers.js'
import { responseStripper } from '../../../src/runtime/response/strip-response.js'
import { mockResponse } from '../../../src/testing/index.js'
import { misuse } from '../../support/misuse.js'

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
    const pending = res.created({ data: { id: 1, secret: 'x' } })
    expect(res.headersSent).toBe(false)
    await expect(pending).resolves.toBeUndefined()
    expect(res._result()).toMatchObject({ statusCode: 201, body: { data: { id: 1 } } })
    // Without a route's next to take the failure, the fallback 500 goes out; still no rejection.
    const bad = mockResponse()
    contextOf(bad).stripper = stripper
    await expect(bad.ok({ data: { id: 'x' } })).resolves.toBeUndefined()
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
        misuse(
          'SG_ERR_INVALID_OPTION',
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

describe('what the response helpers return', () => {
  // A response schema that keeps anything, answering at once or later.
  const keeps = (later: boolean) => ({
    '~standard': {
      version: 1 as const,
      vendor: 'test',
      validate: (value: unknown) => (later ? Promise.resolve({ value }) : { value }),
    },
  })
  const calls: Record<string, (res: Response) => unknown> = {
    ok: (res) => res.ok({ data: { a: 1 } }),
    created: (res) => res.created({ data: { a: 1 } }),
    accepted: (res) => res.accepted({ data: { a: 1 } }),
    paginated: (res) => res.paginated({ data: [], total: 0, page: 1, limit: 10 }),
    cursorPaginated: (res) => res.cursorPaginated({ data: [], nextCursor: null, hasMore: false }),
    noContent: (res) => res.noContent(),
    fail: (res) => res.fail({ code: 'X', message: 'x' }),
  }
  const success = ['ok', 'created', 'accepted', 'paginated', 'cursorPaginated']

  it.each([
    ['no response schema', undefined, false],
    ['a synchronous response schema', keeps(false), false],
    ['an asynchronous response schema', keeps(true), true],
  ])('are undefined, or a promise of undefined: %s', async (_, schema, later) => {
    const returned = new Map<string, unknown>()
    const app = express()
    app.use(shapeguard({ logger: { silent: true } }))
    const route = {
      ...(schema === undefined ? {} : { response: schema }),
      warnings: { missingResponseSchema: false },
    }
    for (const [name, call] of Object.entries(calls)) {
      app.get(
        `/${name}`,
        ...handle(route, async (_req, res) => {
          const value = call(res as Response)
          returned.set(name, value)
          await value
        }),
      )
    }
    for (const name of Object.keys(calls)) {
      const answer = await request(app).get(`/${name}`)
      expect(answer.status, name).toBe(
        { created: 201, accepted: 202, noContent: 204, fail: 400 }[name] ?? 200,
      )
    }
    expect([...returned.keys()]).toEqual(Object.keys(calls))
    for (const [name, value] of returned) {
      if (later && success.includes(name)) {
        expect(value, name).toBeInstanceOf(Promise)
        await expect(value, name).resolves.toBeUndefined()
      } else expect(value, name).toBeUndefined()
    }
  })
})
