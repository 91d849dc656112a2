import { brunoAuth, brunoBody, contentType, fileName, type Uid } from './bruno-parts.js'
import { buildModel } from './build-model.js'
import { alphanumeric21, idSource } from './ids.js'
import type { ClientExportOptions, ExportModel, ExportRequest } from './model.js'
import { checkExportOptions } from './options.js'
import { colonPath, wholeParam } from './path-template.js'
import { queryText } from './text.js'

/** A Bruno collection (JSON), as Bruno's "Import Collection › Bruno Collection" reads it. */
export interface BrunoCollection {
  version: '1'
  uid: string
  name: string
  items: BrunoItem[]
  environments: Array<{ uid: string; name: string; variables: Array<Record<string, unknown>> }>
  root: Record<string, unknown>
  brunoConfig: Record<string, unknown>
}

export interface BrunoItem {
  uid: string
  type: 'folder' | 'http-request'
  name: string
  seq: number
  [field: string]: unknown
}

function requestItem(request: ExportRequest, seq: number, name: string, uid: Uid): BrunoItem {
  const key = `request:${request.key}`
  const path = colonPath(request.path, request.pathParams)
  const whole = new Set(request.path.map(wholeParam).map((p) => p?.variable))
  const headers = request.headers.map((h, i) => ({
    uid: uid(`${key}:header:${i}`),
    name: h.name,
    value: h.value,
    description: h.description,
    enabled: h.enabled,
  }))
  const query = request.query.map((q, i) => ({
    uid: uid(`${key}:query:${i}`),
    name: q.name,
    value: q.value,
    description: q.description,
    type: 'query',
    enabled: q.enabled,
  }))
  for (const [i, extra] of request.extraKeys.entries()) {
    const value = `{{${extra.variable}}}`
    const id = uid(`${key}:key:${i}`)
    if (extra.in === 'query')
      query.push({
        uid: id,
        name: extra.name,
        value,
        description: '',
        type: 'query',
        enabled: true,
      })
    else if (extra.in === 'header')
      headers.push({ uid: id, name: extra.name, value, description: '', enabled: true })
    else
      headers.push({
        uid: id,
        name: 'Cookie',
        value: `${extra.name}=${value}`,
        description: '',
        enabled: true,
      })
  }
  const type = contentType(request.body)
  if (type !== undefined) {
    headers.push({
      uid: uid(`${key}:content-type`),
      name: 'Content-Type',
      value: type,
      description: '',
      enabled: true,
    })
  }
  const params = [
    ...query,
    ...request.pathParams
      .filter((p) => whole.has(p.variable))
      .map((p, i) => ({
        uid: uid(`${key}:path:${i}`),
        name: p.variable,
        value: p.value,
        description: p.description,
        type: 'path',
        enabled: true,
      })),
  ]
  const search = query
    .filter((q) => q.enabled)
    .map((q) => `${queryText(q.name, true)}=${queryText(q.value, false)}`)
    .join('&')
  return {
    uid: uid(key),
    type: 'http-request',
    name,
    seq,
    request: {
      url: `{{baseUrl}}/${path}${search ? `?${search}` : ''}`,
      method: request.method,
      headers,
      params,
      auth: request.inheritsAuth ? { mode: 'inherit' } : brunoAuth(request.auth),
      body: brunoBody(request.body, uid, key),
      script: { req: null, res: null },
      vars: { req: [], res: [] },
      assertions: [],
      tests: null,
      docs: request.description,
    },
  }
}

function items(
  requests: readonly ExportRequest[],
  uid: Uid,
  taken: Set<string>,
  first: number,
): BrunoItem[] {
  return requests.map((r, i) => requestItem(r, first + i, fileName(r.name, taken), uid))
}

function render(model: ExportModel, uid: Uid): BrunoCollection {
  const folderNames = new Set<string>()
  const rootNames = new Set<string>()
  const folders: BrunoItem[] = model.folders.map((folder, i) => {
    const name = fileName(folder.name, folderNames)
    rootNames.add(name.toLowerCase())
    return {
      uid: uid(`folder:${folder.name}`),
      type: 'folder',
      name,
      seq: i + 1,
      root: {
        request: { auth: { mode: 'inherit' } },
        docs: folder.description,
        meta: { name, seq: i + 1 },
      },
      items: items(folder.requests, uid, new Set(), 1),
    }
  })
  const loose = items(model.requests, uid, rootNames, folders.length + 1)
  const plain = model.variables.filter((v) => !v.secret)
  return {
    version: '1',
    uid: uid('collection'),
    name: model.name,
    items: [...folders, ...loose],
    environments: [
      {
        uid: uid('environment'),
        name: 'Default',
        variables: model.variables.map((v) => ({
          uid: uid(`environment:${v.name}`),
          name: v.name,
          value: v.value,
          type: 'text',
          enabled: true,
          secret: v.secret,
        })),
      },
    ],
    root: {
      request: {
        auth: brunoAuth(model.auth),
        vars: {
          req: plain.map((v) => ({
            uid: uid(`var:${v.name}`),
            name: v.name,
            value: v.value,
            description: v.description,
            enabled: true,
          })),
          res: [],
        },
      },
      docs: model.description,
      meta: { name: model.name },
    },
    brunoConfig: {
      version: '1',
      name: model.name,
      type: 'collection',
      ignore: ['node_modules', '.git'],
    },
  }
}

/**
 * Turns an OpenAPI 3.x document into a Bruno collection (JSON): a folder per first tag, a
 * request per operation, `baseUrl` as a collection variable and the secrets in an environment.
 * @param spec an OpenAPI 3.0 or 3.1 document object
 * @param options `seed` for stable IDs (default: random), `name`, `baseUrl`
 * @example
 * writeFileSync('api.bruno.json', JSON.stringify(toBruno(spec, { seed: 'my-api' }), null, 2))
 */
export function toBruno(spec: unknown, options?: ClientExportOptions): BrunoCollection {
  const o = checkExportOptions(options, 'toBruno')
  const id = idSource(o.seed)
  return render(buildModel(spec, o), (key) => alphanumeric21(id(key)))
}
