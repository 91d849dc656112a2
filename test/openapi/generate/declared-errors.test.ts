import { resolve } from 'node:path'
import { Validator } from '@seriousme/openapi-schema-validator'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { AppError } from '../../../src/index.js'
import { generateOpenAPI, type OpenAPIConfig } from '../../../src/openapi/index.js'
import { misuse } from '../../support/misuse.js'
import { inMemoryHost } from '../../support/ts-host.js'

// A route's `errors` documented: one response per status, the declared codes as the error's
// `code` (const or enum) with each one's details schema, so a typed client narrows on the code.

type Any = Record<string, any>
const OutOfStock = AppError.define('OUT_OF_STOCK', 409, 'Out of stock', {
  details: z.object({ sku: z.string() }),
})
const Duplicate = AppError.define('DUPLICATE_ORDER', 409, 'Already ordered')
const KeyRevoked = AppError.define('KEY_REVOKED', 401, 'The key was revoked', {
  details: z.object({ revokedAt: z.string() }),
})
const auth = { bearer: () => ({ id: 1 }) }
const Order = z.object({ sku: z.string(), quantity: z.number().int() })

function documentOf(extra: Partial<OpenAPIConfig> = {}) {
  return generateOpenAPI({
    title: 'Shop',
    version: '1',
    auth,
    defaultSecurity: ['bearer'],
    routes: {
      'POST /orders': {
        body: Order,
        response: Order,
        errors: [OutOfStock, 'NOT_FOUND', 'UNAUTHORIZED', 'VALIDATION_ERROR', KeyRevoked],
      },
      'PUT /orders/:id': { body: Order, errors: [OutOfStock, Duplicate, 'CONFLICT'] },
      'DELETE /orders/:id': { security: [], errors: ['NOT_FOUND', 'CONFLICT', Duplicate] },
      'POST /carts': { body: Order, errors: [OutOfStock] },
    },
    ...extra,
  })
}

const op = (doc: Any, path: string, method: string) => doc.paths[path][method]
const envelopeOf = (code: Any, details: Any) => ({
  type: 'object',
  properties: {
    success: { type: 'boolean', const: false },
    message: { type: 'string' },
    error: {
      type: 'object',
      properties: { code, message: { type: 'string' }, details },
      required: ['code', 'message', 'details'],
    },
  },
  required: ['success', 'message', 'error'],
})
const sku = {
  type: 'object',
  properties: { sku: { type: 'string' } },
  required: ['sku'],
}

describe('declared errors in the document', () => {
  const doc = documentOf() as Any

  it('is valid OpenAPI 3.1', async () => {
    expect(await new Validator().validate(structuredClone(doc))).toEqual({ valid: true })
    const problems = documentOf({
      errors: { format: 'problem+json', problemTypeBase: 'https://shop.example.com/problems/' },
    })
    expect(await new Validator().validate(structuredClone(problems) as never)).toEqual({
      valid: true,
    })
  })

  it('documents one response per declared status, the code as a const and its details schema', () => {
    const post = op(doc, '/orders', 'post')
    expect(Object.keys(post.responses)).toEqual([
      '201',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
      '422',
      '500',
    ])
    // OUT_OF_STOCK is declared by two routes: one component, referred to.
    expect(post.responses['409']).toEqual({
      description: 'Declared by the route: `OUT_OF_STOCK` (Out of stock).',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/OutOfStockError' } } },
    })
    expect(doc.components.schemas.OutOfStockError).toEqual(
      envelopeOf({ type: 'string', const: 'OUT_OF_STOCK' }, sku),
    )
    expect(post.responses['404'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/NotFoundError',
    })
    expect(doc.components.schemas.NotFoundError).toEqual(
      envelopeOf({ type: 'string', const: 'NOT_FOUND' }, {}),
    )
    // Codes shapeguard already documents at their status add nothing.
    expect(post.responses['422']).toEqual({ $ref: '#/components/responses/ValidationFailed' })
  })

  it('combines a declared status with the shared response the route already has', () => {
    const unauthorized = op(doc, '/orders', 'post').responses['401']
    expect(unauthorized.description).toBe(
      'Authentication is required. Codes: `UNAUTHORIZED`. Also declared by the route: `KEY_REVOKED` (The key was revoked).',
    )
    expect(Object.keys(unauthorized.headers)).toEqual(['WWW-Authenticate'])
    const [shared, revoked] = unauthorized.content['application/json'].schema.anyOf
    expect(shared.allOf[0]).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' })
    expect(revoked.properties.error.properties.code).toEqual({
      type: 'string',
      const: 'KEY_REVOKED',
    })
  })

  it('writes codes with different details as oneOf, and codes with the same as an enum', () => {
    const put = op(doc, '/orders/{id}', 'put').responses['409']
    expect(put.description).toBe(
      'Declared by the route: `OUT_OF_STOCK` (Out of stock), `DUPLICATE_ORDER` (Already ordered), `CONFLICT` (Resource already exists).',
    )
    const variants = put.content['application/json'].schema.oneOf
    expect(variants.map((v: Any) => v.$ref ?? v.properties.error.properties.code)).toEqual([
      '#/components/schemas/OutOfStockError',
      { type: 'string', const: 'DUPLICATE_ORDER' },
      { type: 'string', const: 'CONFLICT' },
    ])
    const del = op(doc, '/orders/{id}', 'delete').responses['409']
    expect(del.content['application/json'].schema).toEqual(
      envelopeOf({ type: 'string', enum: ['CONFLICT', 'DUPLICATE_ORDER'] }, {}),
    )
  })

  it('writes problem details with a type per code and the details as members', () => {
    const problems = documentOf({
      errors: { format: 'problem+json', problemTypeBase: 'https://shop.example.com/problems/' },
    }) as Any
    const response = op(problems, '/carts', 'post').responses['409']
    expect(response.content['application/problem+json'].schema).toEqual({
      $ref: '#/components/schemas/OutOfStockError',
    })
    expect(problems.components.schemas.OutOfStockError).toEqual({
      allOf: [
        { $ref: '#/components/schemas/ProblemDetails' },
        {
          type: 'object',
          properties: {
            type: { type: 'string', const: 'https://shop.example.com/problems/out-of-stock' },
            code: { type: 'string', const: 'OUT_OF_STOCK' },
            sku: { type: 'string' },
          },
          required: ['type', 'code', 'sku'],
        },
      ],
    })
  })

  it('refuses a code that is not the registry’s, and an item that is no code or factory', () => {
    const gen = (errors: unknown) => () =>
      generateOpenAPI({ title: 'T', version: '1', routes: { 'GET /x': { errors } as never } })
    expect(gen(['OUT_OF_STOCK'])).toThrow(
      misuse(
        'SG_ERR_UNKNOWN_NAME',
        'shapeguard: generateOpenAPI(): routes["GET /x"].errors: "OUT_OF_STOCK" is not a code shapeguard sends; declare a code of your own with AppError.define("OUT_OF_STOCK", status, message?, { details? }) and list the factory',
      ),
    )
    expect(gen(['__proto__'])).toThrow(/"__proto__" is not a code shapeguard sends/)
    for (const bad of [[42], [{ code: 'X', statusCode: 400 }], [() => 1], 'NOT_FOUND'])
      expect(gen(bad)).toThrow(/routes\["GET \/x"\]\.errors: /)
    // AppError.define refuses it already; a factory of another copy is read by its shape.
    const ok = Object.assign(() => undefined, { code: 'OK', statusCode: 200, details: undefined })
    expect(gen([ok])).toThrow(/a 4xx or 5xx status/)
  })
})

// openapi-typescript's types of the document, and an openapi-fetch program compiled against them.
describe('a typed client of declared errors', () => {
  const root = resolve(import.meta.dirname, '../../..')
  // Files of the test's own folder, read from memory (the compiler looks up existing folders).
  const api = resolve(import.meta.dirname, 'declared-errors.api.ts')
  const program = resolve(import.meta.dirname, 'declared-errors.client.ts')

  async function diagnostics(body: string): Promise<string[]> {
    const types = astToString(await openapiTS(documentOf() as never))
    const client = `import createClient from 'openapi-fetch'
import type { paths } from './declared-errors.api.js'
const client = createClient<paths>({ baseUrl: 'http://127.0.0.1' })
export async function order(): Promise<unknown> {
  const { error } = await client.POST('/orders', { body: { sku: 'a', quantity: 1 } })
  if (error === undefined) return undefined
${body}
  return undefined
}
`
    const config = ts.readConfigFile(resolve(root, 'tsconfig.json'), ts.sys.readFile)
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root)
    const files = new Map([
      [api, types],
      [program, client],
    ])
    return ts
      .getPreEmitDiagnostics(ts.createProgram([program], options, inMemoryHost(options, files)))
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
  }

  it('narrows on error.code to the details of that code', async () => {
    expect(
      await diagnostics(`  if (error.error.code === 'OUT_OF_STOCK') return error.error.details.sku
  if (error.error.code === 'KEY_REVOKED') return error.error.details.revokedAt
  if (error.error.code === 'NOT_FOUND') return error.error.message
  // openapi-fetch's Readable drops a member whose type is only null (NOT_FOUND's details).`),
    ).toEqual([])
  }, 30_000)

  it('refuses a code the route does not declare, and a field its details lack', async () => {
    const wrongCode = await diagnostics(`  if (error.error.code === 'OUT_OF_STOK') return 1`)
    expect(wrongCode.join('\n')).toMatch(/'"OUT_OF_STOK"' have no overlap/)
    const wrongField = await diagnostics(
      `  if (error.error.code === 'OUT_OF_STOCK') return error.error.details.quantity`,
    )
    expect(wrongField.join('\n')).toMatch(/Property 'quantity' does not exist/)
  }, 30_000)
})
