import type { AddressInfo } from 'node:net'
import createClient from 'openapi-fetch'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { boolean, number, object } from 'yup'
import * as z from 'zod'
import { createApp } from '../../examples/demo/app.js'
import { yupAdapter } from '../../src/adapters/yup/index.js'
import { generateOpenAPI } from '../../src/openapi/index.js'
import { uploadsApi } from './exports/fixtures/uploads-api.js'
import type { paths } from './fixtures/demo-paths.js'

// The demo's document → openapi-typescript types (kept in fixtures/demo-paths.ts, checked against
// the document by demo-snapshot.test.ts) → an openapi-fetch client calling the running demo.
describe('a typed openapi-fetch client from the demo document', () => {
  let server: ReturnType<ReturnType<typeof createApp>['listen']>
  let client: ReturnType<typeof createClient<paths>>

  beforeAll(async () => {
    server = createApp().listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    const { port } = server.address() as AddressInfo
    client = createClient<paths>({ baseUrl: `http://127.0.0.1:${port}` })
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  it('reads a user, typed by the response schema', async () => {
    const { data, response } = await client.GET('/users/{id}', { params: { path: { id: 1 } } })
    expect(response.status).toBe(200)
    const name: string | undefined = data?.data.name
    expect(name).toBe('Ada Lovelace')
  })

  it('creates a user under 201, and reads the error envelope of a 422', async () => {
    const created = await client.POST('/users', {
      body: { name: 'Barbara Liskov', email: 'barbara@example.com' },
    })
    expect(created.response.status).toBe(201)
    expect(created.data?.data).toMatchObject({ name: 'Barbara Liskov' })

    const bad = await client.POST('/users', { body: { name: '', email: 'not-an-email' } })
    expect(bad.response.status).toBe(422)
    const code: string | undefined = bad.error?.error.code
    expect(code).toBe('VALIDATION_ERROR')
  })

  it('pages through users with a typed query', async () => {
    const { data } = await client.GET('/users', { params: { query: { page: 2 } } })
    expect(data?.data.page).toBe(2)
  })

  it('makes a wrong body a compile error (checked by tsc)', async () => {
    // A number where the schema says string: tsc (npm run typecheck) fails if this line compiles.
    // @ts-expect-error name must be a string
    const wrong = await client.POST('/users', { body: { name: 42, email: 'x@example.com' } })
    expect(wrong.response.status).toBe(422)
  })
})

// A JSON body's converting fields keep their type (a typed client must not get unknown).
describe('openapi-typescript types of converting body fields', () => {
  it('types a yup integer, a yup boolean and a zod coerced number, each or a string', async () => {
    const warnings: string[] = []
    const doc = generateOpenAPI({
      title: 'Typed',
      version: '1.0.0',
      onWarning: (m) => warnings.push(m),
      routes: {
        'POST /items': {
          body: yupAdapter(object({ qty: number().integer().min(0).required(), gift: boolean() })),
        },
        'POST /orders': { body: z.object({ total: z.coerce.number() }) },
      },
    })
    expect(warnings).toEqual([])
    const types = astToString(await openapiTS(doc as never))
    // A schema that was only a $comment typed these `unknown`.
    expect(types).toMatch(/qty: number \| string;/)
    expect(types).toMatch(/gift\?: boolean \| string;/)
    expect(types).toMatch(/total: number \| string;/)
    expect(types).not.toMatch(/(qty|gift|total)\??: unknown/)
  })
})

// A route's files and cookies: the multipart body's parts and the cookie parameters.
describe('openapi-typescript types of files and cookies', () => {
  const operation = (types: string, id: string) => {
    const start = types.indexOf(`    ${id}: {`)
    return types.slice(start, types.indexOf('responses: {', start)).replace(/\s+/g, ' ')
  }

  it('types file fields as binary strings beside the text fields, and cookies as cookie parameters', async () => {
    const types = astToString(await openapiTS(uploadsApi as never))
    const put = operation(types, 'putProfile')
    expect(put).toMatch(/cookie: \{ theme: "dark" \| "light"; \/\*\*[^*]*\*\/ session: string; \}/)
    expect(put).toMatch(
      /"multipart\/form-data": \{ name: string; age\?: number; \/\*\* \* Format: binary \* @description A square picture \*\/ avatar: string; photos\?: string\[\]; \}/,
    )
    expect(operation(types, 'postImports')).toMatch(
      /"multipart\/form-data": \{ \/\*\* Format: binary \*\/ csv: string; \}/,
    )
  })

  it("types them as Blob with openapi-typescript's transform for format: binary", async () => {
    const blob = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'))
    const types = astToString(
      await openapiTS(uploadsApi as never, {
        transform: (schema) => (schema.format === 'binary' ? blob : undefined),
      }),
    )
    const put = operation(types, 'putProfile')
    expect(put).toMatch(/avatar: Blob; photos\?: Blob\[\];/)
    expect(operation(types, 'postImports')).toMatch(/csv: Blob;/)
  })
})
