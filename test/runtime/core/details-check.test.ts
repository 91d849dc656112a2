import request from 'supertest'
import * as v from 'valibot'
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as z from 'zod'
import { AppError, errorHandler, handle, shapeguard } from '../../../src/index.js'
import { hosts } from '../../support/e2e.js'
import { misuse } from '../../support/misuse.js'

// AppError.define() with a details schema: its arguments are checked when it is called, and in
// development the details a factory is called with are checked against the schema.

const OutOfStock = AppError.define('OUT_OF_STOCK', 409, 'Out of stock', {
  details: z.object({ sku: z.string(), left: z.number().int().optional() }),
})

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('AppError.define', () => {
  it('raises with details its schema accepts, keeping them as given', () => {
    const err = OutOfStock({ sku: 'A1' })
    expect(err).toMatchObject({ code: 'OUT_OF_STOCK', statusCode: 409, details: { sku: 'A1' } })
    expect(OutOfStock.details).toBeDefined()
  })

  it('throws in development naming the code, the path and the expectation, never the value', () => {
    vi.stubEnv('NODE_ENV', 'development')
    const secret = 4242424242
    const call = () => OutOfStock({ sku: secret as never })
    expect(call).toThrow(TypeError)
    expect(call).toThrow(/^shapeguard: the OUT_OF_STOCK error: details\.sku: expected string/i)
    try {
      call()
    } catch (err) {
      expect((err as Error).message).not.toContain(String(secret))
      expect((err as { code: string }).code).toBe('SG_ERR_INVALID_OPTION')
    }
  })

  it('names the root when the details are not an object at all', () => {
    vi.stubEnv('NODE_ENV', 'test')
    expect(() => OutOfStock(null as never)).toThrow(/the OUT_OF_STOCK error: details: /)
  })

  it('checks a schema of another library (valibot, bare)', () => {
    const Gone = AppError.define('GONE_FOR_GOOD', 410, 'Gone', {
      details: v.object({ since: v.string() }),
    })
    expect(Gone({ since: '2024' }).details).toEqual({ since: '2024' })
    expect(() => Gone({ since: 1 } as never)).toThrow(/the GONE_FOR_GOOD error: details\.since: /)
  })

  it('does not check in production, reading NODE_ENV at each call', () => {
    vi.stubEnv('NODE_ENV', 'production')
    expect(OutOfStock({ sku: 1 } as never).details).toEqual({ sku: 1 })
    vi.stubEnv('NODE_ENV', 'development')
    expect(() => OutOfStock({ sku: 1 } as never)).toThrow(TypeError)
  })

  it('refuses options it does not take and a details that is not a schema, at define time', () => {
    expect(() => AppError.define('X', 400, 'x', { detail: z.string() } as never)).toThrow(
      misuse(
        'SG_ERR_UNKNOWN_OPTION',
        'shapeguard: AppError.define("X"): detail is not an option (details)',
      ),
    )
    expect(() => AppError.define('X', 400, 'x', { details: { sku: z.string() } } as never)).toThrow(
      expect.objectContaining({ code: 'SG_ERR_NOT_A_SCHEMA', name: 'TypeError' }),
    )
    expect(() => AppError.define('X', 400, 'x', { details: { sku: z.string() } } as never)).toThrow(
      /^shapeguard: AppError\.define\("X"\): details: expected a zod schema/,
    )
    expect(() => AppError.define('X', 400, 'x', 'details' as never)).toThrow(
      misuse(
        'SG_ERR_INVALID_OPTION',
        'shapeguard: AppError.define("X"): options must be an object ({ details })',
      ),
    )
    expect(() => AppError.define('', 400)).toThrow(
      misuse(
        'SG_ERR_INVALID_OPTION',
        'shapeguard: AppError.define(): code must be a non-empty string',
      ),
    )
    expect(() => AppError.define('X', 200)).toThrow(
      misuse(
        'SG_ERR_INVALID_OPTION',
        'shapeguard: AppError.define("X"): status must be an integer from 400 to 599',
      ),
    )
  })
})

describe.each(hosts)('a factory raised with wrong details on %s', (_, express) => {
  function app() {
    const app = express()
    app.use(shapeguard({ debug: true, logger: { silent: true } }))
    app.get(
      '/items/:sku',
      ...handle({ errors: [OutOfStock] }, () => {
        throw OutOfStock({ sku: 12345 } as never)
      }),
    )
    app.use(errorHandler())
    return app
  }

  it('reaches the error middleware as a 500 INTERNAL_ERROR naming the code and path in development', async () => {
    vi.stubEnv('NODE_ENV', 'development')
    const res = await request(app()).get('/items/a')
    expect(res.status).toBe(500)
    expect(res.body.error.code).toBe('INTERNAL_ERROR')
    expect(res.body.error.message).toMatch(/the OUT_OF_STOCK error: details\.sku: /)
    expect(res.text).not.toContain('12345')
  })
})
