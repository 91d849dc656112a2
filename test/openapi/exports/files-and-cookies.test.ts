import { openApiToBruno } from '@usebruno/converters'
import converter from 'openapi-to-postmanv2'
import { describe, expect, it } from 'vitest'
import { toBruno, toInsomnia, toPostman } from '../../../src/openapi/index.js'
import { uploadsApi } from './fixtures/uploads-api.js'

// Routes with files and cookies (the uploads API, generated) in the three client exports: each
// file field a form file in the tool's own spelling, cookie parameters one Cookie header. The
// importers' acceptance of these exports is checked with every other document (documents.ts).

type Any = Record<string, any>

/** Every request of a collection whose folders are `key` lists, by method and URL's last segment. */
function byRoute(items: Any[], key: string, route: (r: Any) => string): Map<string, Any> {
  const flat = (list: Any[]): Any[] => list.flatMap((i) => (i[key] ? flat(i[key]) : [i]))
  return new Map(flat(items).map((r) => [route(r), r]))
}

const postmanRoute = (r: Any) => `${r.request.method} /${r.request.url.path.join('/')}`

function postman(doc: unknown) {
  return byRoute((toPostman(doc) as Any).item, 'item', postmanRoute)
}

function insomnia(doc: unknown) {
  const requests = toInsomnia(doc).resources.filter((r) => r._type === 'request') as Any[]
  return new Map(requests.map((r) => [`${r.method} ${r.url.replace('{{ _.baseUrl }}', '')}`, r]))
}

function bruno(doc: unknown) {
  return byRoute(
    (toBruno(doc) as Any).items,
    'items',
    (r) => `${r.request.method} ${r.request.url.replace('{{baseUrl}}', '')}`,
  )
}

// [field, type, enabled] of each form field, in the tool's own words.
const fields = {
  postman: (r: Any) =>
    r.request.body.formdata.map((f: Any) => [f.key, f.type, f.disabled !== true]),
  insomnia: (r: Any) =>
    r.body.params.map((f: Any) => [f.name, f.type ?? 'text', f.disabled !== true]),
  bruno: (r: Any) =>
    r.request.body.multipartForm.map((f: Any) => [f.name, f.type, f.enabled === true]),
}

const cookieHeader = {
  postman: (r: Any) => r.request.header.find((h: Any) => h.key === 'Cookie')?.value,
  insomnia: (r: Any) => r.headers.find((h: Any) => h.name === 'Cookie')?.value,
  bruno: (r: Any) => r.request.headers.find((h: Any) => h.name === 'Cookie')?.value,
}

describe('the client exports of routes with files and cookies', () => {
  const exports = {
    postman: postman(uploadsApi),
    insomnia: insomnia(uploadsApi),
    bruno: bruno(uploadsApi),
  }

  it.each(Object.keys(exports) as (keyof typeof exports)[])(
    '%s sends each file field as a form file, a required one enabled',
    (tool) => {
      const profile = exports[tool].get('PUT /profile')!
      expect(fields[tool](profile)).toEqual([
        ['name', 'text', true],
        ['age', 'text', true],
        ['avatar', 'file', true],
        ['photos', 'file', false],
      ])
      expect(fields[tool](exports[tool].get('POST /imports')!)).toEqual([['csv', 'file', true]])
    },
  )

  it.each(Object.keys(exports) as (keyof typeof exports)[])(
    '%s sends the cookie parameters, signed ones as s:<value>.<signature>, in one Cookie header',
    (tool) => {
      expect(cookieHeader[tool](exports[tool].get('PUT /profile')!)).toMatch(
        /^theme=dark; session=s:[^;]*\.[A-Za-z0-9+/]{43}$/,
      )
      expect(cookieHeader[tool](exports[tool].get('PATCH /profile')!)).toMatch(/^session=s:/)
      expect(cookieHeader[tool](exports[tool].get('POST /imports')!)).toBeUndefined()
    },
  )

  it("agrees with Postman's and Bruno's own importers on single-file fields", async () => {
    const theirs = await new Promise<Any>((resolve, reject) =>
      converter.convert(
        { type: 'json', data: structuredClone(uploadsApi) },
        { folderStrategy: 'Tags', requestNameSource: 'Fallback' },
        (error, out) => (error ? reject(error) : resolve(out.output[0]!.data)),
      ),
    )
    const files = (list: Array<[string, string, boolean]>) =>
      list.filter(([name, type]) => type === 'file' && name !== 'photos').map(([name]) => name)
    const postmans = byRoute(theirs.item, 'item', postmanRoute)
    const brunos = byRoute(
      (openApiToBruno(structuredClone(uploadsApi)) as Any).items,
      'items',
      (r) => `${r.request.method} ${r.request.url.replace('{{baseUrl}}', '')}`,
    )
    for (const route of ['PUT /profile', 'POST /imports']) {
      const mine = files(fields.postman(exports.postman.get(route)!))
      // Neither importer makes an array of files a file field: toPostman and toBruno do.
      expect(files(fields.postman(postmans.get(route)!)), route).toEqual(mine)
      expect(files(fields.bruno(brunos.get(route)!)), route).toEqual(mine)
    }
  })
})

describe('the client exports of a 3.1 file field without format: binary', () => {
  // OpenAPI 3.1 writes a file part as contentMediaType alone; base64 text is no file.
  const doc = {
    openapi: '3.1.0',
    info: { title: 'Files', version: '1' },
    servers: [{ url: 'http://localhost' }],
    paths: {
      '/up': {
        post: {
          requestBody: {
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  properties: {
                    picture: { type: 'string', contentMediaType: 'image/png' },
                    pictures: { type: 'array', items: { contentMediaType: 'image/png' } },
                    inline: {
                      type: 'string',
                      contentMediaType: 'image/png',
                      contentEncoding: 'base64',
                    },
                  },
                  required: ['picture', 'pictures', 'inline'],
                },
              },
            },
          },
          responses: { 200: { description: 'OK' } },
        },
      },
    },
  }
  const expected = [
    ['picture', 'file', true],
    ['pictures', 'file', true],
    ['inline', 'text', true],
  ]

  it('sends contentMediaType parts as files in Postman, Insomnia and Bruno', () => {
    expect(fields.postman(postman(doc).get('POST /up')!)).toEqual(expected)
    expect(fields.insomnia(insomnia(doc).get('POST /up')!)).toEqual(expected)
    expect(fields.bruno(bruno(doc).get('POST /up')!)).toEqual(expected)
  })
})
