import { openApiToBruno, postmanToBruno } from '@usebruno/converters'
import { collectionSchema } from '@usebruno/schema'
import { describe, expect, it } from 'vitest'
import { type BrunoItem, toBruno, toPostman } from '../../../src/openapi/index.js'
import {
  bodySchemaPointer,
  type DocOperation,
  operationsOf,
  pathMatches,
  pathShape,
  schemaValidator,
} from '../../support/openapi-document.js'
import { documents } from './fixtures/documents.js'

type Any = Record<string, any>

function requests(items: Any[], folder?: string): Array<{ item: Any; folder: string | undefined }> {
  return items.flatMap((item) =>
    item.type === 'folder' ? requests(item.items ?? [], item.name) : [{ item, folder }],
  )
}

// Auth as Bruno applies it: `inherit` walks up to the collection's auth.
function effectiveAuth(collection: Any, item: Any): Any {
  const auth = item.request.auth
  return auth?.mode === 'inherit' ? collection.root?.request?.auth : auth
}

// What Bruno sends for a request, in a form both collections share.
function view(collection: Any, item: Any) {
  const request = item.request
  // Values with {{…}} are secrets the auth adds; the converter lists some as plain params.
  const plain = (p: Any) => !String(p.value).includes('{{')
  const pathNames = [
    ...request.params.filter((p: Any) => p.type === 'path').map((p: Any) => p.name),
  ]
  return {
    method: request.method,
    url: pathShape(
      String(request.url)
        .replace(/^\{\{baseUrl\}\}/, '')
        .split('?')[0]!,
    ),
    query: [
      ...new Set(
        request.params.filter((p: Any) => p.type === 'query' && plain(p)).map((p: Any) => p.name),
      ),
    ].sort(),
    pathParams: [...new Set(pathNames)].sort(),
    headers: [
      ...new Set(
        request.headers
          .filter((h: Any) => plain(h) && h.name !== 'Content-Type' && h.name !== 'Cookie')
          .map((h: Any) => h.name),
      ),
    ].sort(),
    body: request.body?.mode,
    auth: effectiveAuth(collection, item)?.mode ?? 'none',
  }
}

function matches(item: Any, op: DocOperation): boolean {
  const path = String(item.request.url).replace(/^\{\{baseUrl\}\}/, '')
  return item.request.method === op.method && pathMatches(path, op.path)
}

async function converted(doc: unknown): Promise<Any> {
  return openApiToBruno(structuredClone(doc) as Any)
}

// Where @usebruno/converters 0.23 and toBruno differ on purpose; each is checked below.
const knownDifferences: Record<string, Partial<Record<keyof ReturnType<typeof view>, string>>> = {
  // security: [] makes an operation public; the converter gives it `inherit` (the collection's).
  'GET /health': { auth: 'public' },
  'GET /public': { auth: 'public' },
  // (The converter maps no openIdConnect scheme and inherits the collection's bearer auth; toBruno
  // sends the scheme's own token as a bearer token: the modes agree, the variables do not.)
  // The converter ignores `style: deepObject` (it writes `status`, not `filter[status]`), and keeps
  // an `Accept` header parameter, which OpenAPI says to ignore.
  // The converter writes a parameter inside a segment as `{{operationId_name}}`, a variable of
  // the user's; toBruno writes its example value (`10.json`), and only `:orgId` is a path param.
  'GET /orgs/{orgId}/files/{fileId}.json': {
    query: 'deepObject',
    headers: 'Accept',
    url: 'embedded parameter',
    pathParams: 'embedded parameter',
  },
  // The converter has no body mode for application/octet-stream; toBruno sends a file.
  'PUT /blob': { body: 'octet-stream' },
}

describe.each(documents)('toBruno: $name', ({ doc }) => {
  const exported = toBruno(doc)
  const ops = operationsOf(doc)

  it("passes @usebruno/schema's collection schema", async () => {
    await expect(
      collectionSchema.validate(JSON.parse(JSON.stringify(exported))),
    ).resolves.toBeTruthy()
  })

  it('agrees with @usebruno/converters request by request: method, URL, params, body mode, auth', async () => {
    const theirs = await converted(doc)
    const mine = requests(exported.items as Any[])
    const other = requests(theirs.items)
    expect(mine.length).toBe(ops.length)
    expect(other.length).toBe(ops.length)
    for (const op of ops) {
      const key = `${op.method} ${op.path}`
      const find = (list: typeof mine) => list.find(({ item }) => matches(item, op))
      const a = find(mine)
      const b = find(other)
      expect(a, key).toBeDefined()
      expect(b, key).toBeDefined()
      expect(a!.folder, key).toBe(b!.folder)
      const left = view(exported, a!.item)
      const right = view(theirs, b!.item)
      const skip = knownDifferences[key] ?? {}
      for (const field of Object.keys(left) as Array<keyof typeof left>) {
        if (field in skip)
          expect(left[field], `${key} ${field} differs (${skip[field]})`).not.toEqual(right[field])
        else expect(left[field], `${key} ${field}`).toEqual(right[field])
      }
    }
  })

  it('gives the same requests as Bruno makes of toPostman’s collection (its Postman import)', async () => {
    const { collection, issues } = await postmanToBruno(toPostman(doc))
    expect(issues).toEqual([])
    const mine = requests(exported.items as Any[])
    const other = requests(collection.items)
    expect(other.length).toBe(mine.length)
    for (const [index, { item, folder }] of mine.entries()) {
      const theirs = other[index]!
      // Names differ only where toBruno made a file name (`JSON: …` becomes `JSON- …`).
      expect(theirs.folder).toBe(folder)
      const left = view(exported, item)
      const right = view(collection, theirs.item)
      expect(right).toEqual(left)
      expect(theirs.item.request.url).toBe(item.request.url)
    }
  })

  it('writes :name path parameters and sends JSON bodies the schema accepts', () => {
    const check = schemaValidator(doc)
    for (const op of ops) {
      const { item } = requests(exported.items as Any[]).find(({ item }) => matches(item, op))!
      expect(item.request.url).not.toMatch(/[^{]\{[A-Za-z]+\}/)
      const media = Object.keys(op.requestBody?.content ?? {})[0]
      if (media === 'application/json') {
        expect(item.request.body.mode).toBe('json')
        expect(check(bodySchemaPointer(op, media), JSON.parse(item.request.body.json))).toEqual([])
      }
    }
  })
})

describe('toBruno', () => {
  it('gives public operations no auth and openIdConnect a bearer token', () => {
    const exported = toBruno(documents[1]!.doc)
    const byName = new Map(requests(exported.items as Any[]).map(({ item }) => [item.name, item]))
    expect(byName.get('isPublic')!.request.auth).toEqual({ mode: 'none' })
    expect(byName.get('withOpenIdConnect')!.request.auth).toEqual({
      mode: 'bearer',
      bearer: { token: '{{oidcToken}}' },
    })
    expect(byName.get('withCookieKey')!.request.auth.apikey).toEqual({
      key: 'Cookie',
      value: 'sid={{cookieKey}}',
      placement: 'header',
    })
    expect(byName.get('withTwoKeys')!.request.params).toContainEqual(
      expect.objectContaining({
        name: 'api_key',
        value: '{{queryKey}}',
        type: 'query',
        enabled: true,
      }),
    )
  })

  it('keeps secrets in an environment, marked secret, and baseUrl as a collection variable', () => {
    const exported = toBruno(documents[1]!.doc, { seed: 'x' })
    const env = exported.environments[0]!.variables
    expect(env.find((v) => v.name === 'baseUrl')).toMatchObject({
      value: 'https://eu.example.com/v2',
      secret: false,
    })
    expect(env.find((v) => v.name === 'bearerToken')).toMatchObject({ value: '', secret: true })
    const vars = (exported.root.request as Any).vars.req as Any[]
    expect(vars.map((v) => v.name)).toContain('baseUrl')
    expect(vars.map((v) => v.name)).not.toContain('bearerToken')
  })

  it('uses the same uids for the same seed, 21 alphanumeric characters each', () => {
    const doc = documents[0]!.doc
    expect(toBruno(doc, { seed: 'v1' })).toEqual(toBruno(doc, { seed: 'v1' }))
    const uids = JSON.stringify(toBruno(doc)).match(/"uid":"[^"]*"/g)!
    for (const uid of uids) expect(uid).toMatch(/^"uid":"[A-Za-z0-9]{21}"$/)
    expect(new Set(uids).size).toBe(uids.length)
  })

  it('gives two requests of one folder distinct file names', () => {
    const doc = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/a': { get: { summary: 'Same/name?' }, post: { summary: 'Same/name?' } },
      },
    }
    const names = (toBruno(doc).items as BrunoItem[]).map((i) => i.name)
    expect(names).toEqual(['Same-name-', 'Same-name- (2)'])
  })
})
