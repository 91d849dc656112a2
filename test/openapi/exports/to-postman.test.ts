import { readFileSync } from 'node:fs'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import postman from 'postman-collection'
import { describe, expect, it } from 'vitest'
import { toPostman } from '../../../src/openapi/index.js'
import {
  bodySchemaPointer,
  type DocOperation,
  operationsOf,
  pathMatches,
  schemaValidator,
} from '../../support/openapi-document.js'
import { documents } from './fixtures/documents.js'

const schema = JSON.parse(
  readFileSync(
    new URL('./fixtures/postman-collection-v2.1.0.schema.json', import.meta.url),
    'utf8',
  ),
)
const ajv = new Ajv({ strict: false, allErrors: true })
addFormats(ajv)
const validateCollection = ajv.compile(schema)

type Item = InstanceType<typeof postman.Item>

function items(collection: InstanceType<typeof postman.Collection>): Item[] {
  const out: Item[] = []
  collection.forEachItem((item) => {
    out.push(item)
  })
  return out
}

// What Postman shows of a request, read through postman-collection's own objects.
function view(item: Item) {
  const request = item.request
  const url = request.url
  return {
    name: item.name,
    method: request.method,
    host: url.getHost(),
    path: `/${(url.path ?? []).join('/')}`,
    query: url.query.all().map((q) => ({ key: q.key, disabled: q.disabled === true })),
    headers: request.headers.all().map((h) => h.key),
    body: request.body?.mode,
    auth: request.auth?.type,
  }
}

function find(all: Item[], op: DocOperation): Item {
  return all.find((i) => i.request.method === op.method && pathMatches(view(i).path, op.path))!
}

describe.each(documents)('toPostman: $name', ({ doc }) => {
  const exported = toPostman(doc)
  const ops = operationsOf(doc)

  it('validates against the Collection v2.1 JSON Schema', async () => {
    await expect(validateCollection(JSON.parse(JSON.stringify(exported)))).resolves.toBeTruthy()
  })

  it('parses with postman-collection and survives a round trip unchanged', () => {
    const once = new postman.Collection(exported as never).toJSON()
    const twice = new postman.Collection(once).toJSON()
    expect(twice).toEqual(once)
    expect(items(new postman.Collection(once)).map(view)).toEqual(
      items(new postman.Collection(exported as never)).map(view),
    )
  })

  it('lists every operation as one request, in a folder named by its first tag', () => {
    const collection = new postman.Collection(exported as never)
    const all = items(collection)
    expect(all.length).toBe(ops.length)
    for (const op of ops) {
      const found = all.filter(
        (i) => i.request.method === op.method && pathMatches(view(i).path, op.path),
      )
      expect(found.length, `${op.method} ${op.path}`).toBe(1)
      const parent = found[0]!.parent() as { name?: string } | undefined
      const folder = parent && parent !== (collection as unknown) ? parent.name : undefined
      expect([found[0]!.name, folder]).toEqual([op.name, op.folder])
    }
  })

  it('writes path variables as :name, a baseUrl host, and disables optional query parameters', () => {
    const all = items(new postman.Collection(exported as never))
    for (const op of ops) {
      const item = find(all, op)
      expect(item.request.url.getHost()).toBe('{{baseUrl}}')
      const raw = JSON.stringify(item.request.url.toJSON())
      expect(raw).not.toMatch(/[^{]\{[A-Za-z]+\}/)
      const query = view(item).query
      for (const param of op.parameters.filter((p) => p.in === 'query')) {
        const entries = query.filter(
          (q) => q.key === param.name || q.key.startsWith(`${param.name}[`),
        )
        if (param.schema?.type === 'object' && param.style !== 'deepObject') continue
        expect(entries.length, `${op.method} ${op.path} ?${param.name}`).toBeGreaterThan(0)
        for (const entry of entries) expect(entry.disabled).toBe(param.required !== true)
      }
      const headers = view(item).headers.map((h) => h.toLowerCase())
      for (const param of op.parameters.filter((p) => p.in === 'header' && p.name !== 'Accept')) {
        expect(headers).toContain(param.name.toLowerCase())
      }
    }
  })

  it('sends JSON bodies the request schema accepts', () => {
    const check = schemaValidator(doc)
    const all = items(new postman.Collection(exported as never))
    let checked = 0
    for (const op of ops) {
      const media = Object.keys(op.requestBody?.content ?? {})[0]
      if (media !== 'application/json') continue
      const body = find(all, op).request.body!
      expect(body.mode).toBe('raw')
      expect(check(bodySchemaPointer(op, media), JSON.parse(body.raw!))).toEqual([])
      checked++
    }
    expect(checked).toBeGreaterThan(0)
  })

  it('declares baseUrl from servers[0] and a variable for every {{name}} it uses', () => {
    const names = exported.variable.map((v) => v.key)
    expect(names[0]).toBe('baseUrl')
    const text = JSON.stringify(exported)
    const used = new Set([...text.matchAll(/\{\{([^}]+)\}\}/g)].map((m) => m[1]!))
    for (const name of used) expect(names).toContain(name)
    for (const v of exported.variable.filter(
      (v) => v.key !== 'baseUrl' && !v.key.endsWith('RedirectUrl'),
    )) {
      expect(v.value).toBe('')
    }
  })
})

describe('toPostman', () => {
  it('maps each security scheme to Postman auth', () => {
    const exported = toPostman(documents[1]!.doc)
    const auth = new Map(
      exported.item
        .flatMap((f) => ('item' in f ? f.item : [f]))
        .map((i) => [i.name, 'request' in i ? i.request.auth : undefined]),
    )
    expect(exported.auth).toEqual({
      type: 'bearer',
      bearer: [{ key: 'token', value: '{{bearerToken}}', type: 'string' }],
    })
    expect(auth.get('withBearer')).toMatchObject({ type: 'bearer' })
    expect(auth.get('withBasic')).toMatchObject({
      type: 'basic',
      basic: [
        { key: 'username', value: '{{basicUsername}}' },
        { key: 'password', value: '{{basicPassword}}' },
      ],
    })
    expect(auth.get('withDigest')).toMatchObject({ type: 'digest' })
    expect(auth.get('withHeaderKey')).toMatchObject({
      type: 'apikey',
      apikey: [{ value: 'X-API-Key' }, { value: '{{headerKey}}' }, { value: 'header' }],
    })
    expect(auth.get('withQueryKey')).toMatchObject({
      type: 'apikey',
      apikey: [{ value: 'api_key' }, { value: '{{queryKey}}' }, { value: 'query' }],
    })
    expect(auth.get('withCookieKey')).toMatchObject({
      type: 'apikey',
      apikey: [{ value: 'Cookie' }, { value: 'sid={{cookieKey}}' }, { value: 'header' }],
    })
    expect(auth.get('withOAuth')).toMatchObject({
      type: 'oauth2',
      oauth2: expect.arrayContaining([
        { key: 'grant_type', value: 'authorization_code', type: 'string' },
        { key: 'authUrl', value: 'https://auth.example.com/authorize', type: 'string' },
        { key: 'scope', value: 'users:read', type: 'string' },
        { key: 'clientSecret', value: '{{oauthClientSecret}}', type: 'string' },
      ]),
    })
    expect(auth.get('withClientCredentials')).toMatchObject({
      type: 'oauth2',
      oauth2: expect.arrayContaining([
        { key: 'grant_type', value: 'client_credentials', type: 'string' },
      ]),
    })
    expect(auth.get('withOpenIdConnect')).toMatchObject({
      type: 'bearer',
      bearer: [{ value: '{{oidcToken}}' }],
    })
    expect(auth.get('isPublic')).toEqual({ type: 'noauth' })
    expect(auth.get('Every parameter')).toBeUndefined()
  })

  it('uses the same IDs for the same seed, and random ones without', () => {
    const doc = documents[0]!.doc
    expect(toPostman(doc, { seed: 'a' })).toEqual(toPostman(doc, { seed: 'a' }))
    expect(toPostman(doc, { seed: 'a' }).info._postman_id).not.toBe(
      toPostman(doc, { seed: 'b' }).info._postman_id,
    )
    const first = toPostman(doc)
    const second = toPostman(doc)
    expect(first.info._postman_id).not.toBe(second.info._postman_id)
    expect(first.info._postman_id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    )
    const noIds = (c: unknown) => JSON.stringify(c).replace(/"(id|_postman_id)":"[^"]+"/g, '')
    expect(noIds(first)).toBe(noIds(second))
  })
})
