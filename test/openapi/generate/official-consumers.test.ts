import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Validator } from '@seriousme/openapi-schema-validator'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { generateOpenAPI } from '../../../src/openapi/index.js'
import { hosts } from '../../support/e2e.js'
import { shopApp, shopConfig } from '../fixtures/shop-api.js'

const run = promisify(execFile)
const root = join(import.meta.dirname, '../../..')

function shopDocument(express: (typeof hosts)[number][1]) {
  const warnings: string[] = []
  const doc = generateOpenAPI({
    ...shopConfig,
    app: shopApp(express as never),
    onWarning: (m) => warnings.push(m),
  })
  return { doc, warnings }
}

/** Every `$ref` in the document, with whether it points at something. */
function refs(doc: unknown): { ref: string; resolves: boolean }[] {
  const out: { ref: string; resolves: boolean }[] = []
  const at = (pointer: string) =>
    pointer
      .slice(2)
      .split('/')
      .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc)
  const walk = (node: unknown) => {
    if (typeof node !== 'object' || node === null) return
    const ref = (node as { $ref?: unknown }).$ref
    if (typeof ref === 'string')
      out.push({ ref, resolves: ref.startsWith('#/') && at(ref) !== undefined })
    for (const child of Object.values(node)) walk(child)
  }
  walk(doc)
  return out
}

describe.each(hosts)('the shop API documented from its %s app', (_, express) => {
  const { doc, warnings } = shopDocument(express)

  it('discovers every route with its full path, without warnings', () => {
    expect(warnings).toEqual([])
    expect(
      Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.keys(item).map((m) => `${m} ${path}`),
      ),
    ).toEqual([
      'get /v1/products',
      'post /v1/products',
      'get /v1/products/{id}',
      'post /v1/products/{id}/images',
      'put /v1/products/{id}/manual',
      'post /v1/orders',
      'post /v1/products/{id}/reviews',
      'get /v1/categories',
      'post /v1/admin/reindex',
    ])
  })

  it('is valid OpenAPI 3.1 by @seriousme/openapi-schema-validator', async () => {
    const result = await new Validator().validate(structuredClone(doc) as never)
    expect(result).toEqual({ valid: true })
  })

  it('has $refs that all resolve, and schemas ajv compiles as JSON Schema 2020-12', () => {
    const all = refs(doc)
    expect(all.length).toBeGreaterThan(20)
    expect(all.filter((r) => !r.resolves)).toEqual([])
    const ajv = new Ajv2020({ strict: false })
    addFormats(ajv)
    ajv.addSchema({ $id: 'doc', components: doc.components })
    const check = ajv.compile({ $ref: 'doc#/components/schemas/Product' })
    expect(check({})).toBe(false)
  })

  it('documents recursion, unions, uploads, cookies, security and rate limits', () => {
    const schemas = doc.components.schemas as Record<string, any>
    expect(schemas.Category.properties.children.items.$ref).toBe('#/components/schemas/Category')
    expect(schemas.Product.properties.delivery.oneOf).toHaveLength(2)
    const upload = (doc.paths['/v1/products/{id}/images'] as any).post.requestBody.content[
      'multipart/form-data'
    ]
    expect(upload.schema.properties.thumbnail).toMatchObject({ format: 'binary' })
    const manual = (doc.paths['/v1/products/{id}/manual'] as any).put
    expect(manual.requestBody.content['multipart/form-data']).toMatchObject({
      schema: {
        properties: {
          language: { enum: ['en', 'de'] },
          manual: { format: 'binary', contentMediaType: 'application/pdf' },
          photos: { type: 'array', maxItems: 5 },
        },
        required: ['language', 'manual'],
      },
      encoding: { photos: { contentType: 'image/png, image/jpeg' } },
    })
    expect(manual.parameters.map((p: any) => `${p.in} ${p.name}`)).toEqual([
      'path id',
      'cookie currency',
      'cookie editor',
    ])
    const order = (doc.paths['/v1/orders'] as any).post
    expect(order.responses).toHaveProperty('429')
    expect(order['x-idempotent']).toBe(false)
    expect((doc.paths['/v1/products'] as any).get.security).toEqual([])
    expect((doc.paths['/v1/admin/reindex'] as any).post).toMatchObject({
      security: [{ apiKey: [] }],
      deprecated: true,
    })
  })
})

describe('redocly lint', () => {
  it('finds zero errors in the shop document (recommended rules, no network)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-openapi-'))
    try {
      const file = join(dir, 'openapi.json')
      writeFileSync(file, JSON.stringify(shopDocument(hosts[1][1]).doc))
      const bin = join(root, 'node_modules/.bin/redocly')
      // A proxy that refuses every connection: the linter must not need the network.
      const env = {
        ...process.env,
        REDOCLY_TELEMETRY: 'off',
        REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
        HTTP_PROXY: 'http://127.0.0.1:9',
        HTTPS_PROXY: 'http://127.0.0.1:9',
        NO_COLOR: '1',
      }
      const out = await run(bin, ['lint', file, '--format=json'], { env, cwd: dir }).catch(
        (err: { stdout: string; stderr: string }) => err,
      )
      const report = JSON.parse(out.stdout.slice(out.stdout.indexOf('{'))) as {
        totals: { errors: number; warnings: number }
        problems: { ruleId: string; severity: string; message: string }[]
      }
      expect(report.problems.filter((p) => p.severity === 'error')).toEqual([])
      expect(report.totals.errors).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
