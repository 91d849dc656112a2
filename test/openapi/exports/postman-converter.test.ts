import converter from 'openapi-to-postmanv2'
import { describe, expect, it, vi } from 'vitest'
import { toPostman } from '../../../src/openapi/index.js'
import { operationsOf, pathMatches, pathShape } from '../../support/openapi-document.js'
import { documents } from './fixtures/documents.js'

// A second opinion: Postman's own OpenAPI converter (openapi-to-postmanv2, what Postman's
// "Import" runs on an OpenAPI file) turns the same document into a collection, and the two agree
// request by request.

type Any = Record<string, any>

async function postmansOwn(doc: unknown): Promise<Any> {
  // It warns when it cannot merge an allOf (two `type`s of one property) and goes on.
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  const result = await new Promise<{
    result: boolean
    reason?: string
    output: Array<{ data: Any }>
  }>((resolve, reject) =>
    converter.convert(
      { type: 'json', data: structuredClone(doc) },
      { folderStrategy: 'Tags', requestNameSource: 'Fallback' },
      (error, out) => (error ? reject(error) : resolve(out)),
    ),
  )
  warn.mockRestore()
  expect(result.reason).toBeUndefined()
  return result.output[0]!.data
}

function requests(items: Any[], folder?: string): Array<{ item: Any; folder: string | undefined }> {
  return items.flatMap((item) => (item.item ? requests(item.item, item.name) : [{ item, folder }]))
}

// Postman's auth resolution: a request without auth (or with `null`) inherits the collection's.
function view(collection: Any, item: Any, serverVariables: string[]) {
  const request = item.request
  const url = request.url
  const plain = (p: Any) => !String(p.value).includes('{{')
  return {
    method: request.method,
    path: pathShape(`/${(url.path ?? []).join('/')}`),
    query: [...new Set((url.query ?? []).filter(plain).map((q: Any) => q.key))].sort(),
    // The converter keeps servers[0]'s variables as path variables; toPostman puts their defaults
    // into baseUrl.
    pathVariables: (url.variable ?? [])
      .map((v: Any) => v.key)
      .filter((k: string) => !serverVariables.includes(k))
      .sort(),
    headers: [
      ...new Set(
        (request.header ?? [])
          .filter((h: Any) => plain(h) && !['Content-Type', 'Accept', 'Cookie'].includes(h.key))
          .map((h: Any) => h.key),
      ),
    ].sort(),
    body: request.body?.mode,
    auth: (request.auth ?? collection.auth)?.type ?? 'noauth',
  }
}

// Where openapi-to-postmanv2 6.3 and toPostman differ on purpose; each is checked below.
const knownDifferences: Record<string, Partial<Record<keyof ReturnType<typeof view>, string>>> = {
  // security: [] makes an operation public; the converter lets it inherit the collection's auth.
  'GET /health': { auth: 'public' },
  'GET /public': { auth: 'public' },
  // A parameter inside a segment: the converter writes `{{fileId}}`, a variable of the user's;
  // toPostman writes its example value (`10.json`).
  'GET /orgs/{orgId}/files/{fileId}.json': { path: 'embedded parameter' },
}

describe.each(documents)('toPostman and Postman’s own converter: $name', ({ doc }) => {
  it('agree request by request: folder, method, path, parameters, body mode, auth', async () => {
    const theirs = await postmansOwn(doc)
    const exported = toPostman(doc) as unknown as Any
    const mine = requests(exported.item)
    const other = requests(theirs.item)
    const ops = operationsOf(doc)
    expect(mine.length).toBe(ops.length)
    expect(other.length).toBe(ops.length)
    const differences: string[] = []
    for (const op of ops) {
      const key = `${op.method} ${op.path}`
      const find = (list: typeof mine) =>
        list.find(
          ({ item }) =>
            item.request.method === op.method &&
            pathMatches(`/${(item.request.url.path ?? []).join('/')}`, op.path),
        )
      const a = find(mine)
      const b = find(other)
      expect(a, key).toBeDefined()
      expect(b, key).toBeDefined()
      expect(a!.folder, key).toBe(b!.folder)
      const serverVariables = Object.keys((doc as Any).servers?.[0]?.variables ?? {})
      const left = view(exported, a!.item, serverVariables)
      const right = view(theirs, b!.item, serverVariables)
      const skip = knownDifferences[key] ?? {}
      for (const field of Object.keys(left) as Array<keyof typeof left>) {
        const same = JSON.stringify(left[field]) === JSON.stringify(right[field])
        if (field in skip ? same : !same) {
          differences.push(
            `${key} ${field}: ${JSON.stringify(left[field])} / ${JSON.stringify(right[field])}`,
          )
        }
      }
    }
    expect(differences).toEqual([])
  })
})
