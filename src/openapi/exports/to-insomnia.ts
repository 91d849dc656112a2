import { buildModel } from './build-model.js'
import { setOwn } from './document.js'
import { idSource } from './ids.js'
import type {
  ClientExportOptions,
  ExportAuth,
  ExportBody,
  ExportModel,
  ExportRequest,
} from './model.js'
import { checkExportOptions } from './options.js'

/** An Insomnia export (format 4), as Insomnia's "Import" reads it. */
export interface InsomniaExport {
  _type: 'export'
  __export_format: 4
  __export_source: string
  resources: InsomniaResource[]
}

export interface InsomniaResource {
  _id: string
  _type: 'workspace' | 'environment' | 'request_group' | 'request'
  parentId: string | null
  name: string
  [field: string]: unknown
}

const grantTypes = {
  authorization_code: 'authorization_code',
  implicit: 'implicit',
  password: 'password',
  client_credentials: 'client_credentials',
} as const

/** `{{ _.name }}`: a variable of the active environment. */
function ref(name: string): string {
  return `{{ _.${name} }}`
}

function authentication(auth: ExportAuth): Record<string, unknown> {
  switch (auth.type) {
    case 'none':
    case 'apiKey':
      // Insomnia's own OpenAPI import sends API keys as headers, query parameters or cookies.
      return {}
    case 'bearer':
      return { type: 'bearer', token: ref(auth.token), prefix: '' }
    case 'basic':
    case 'digest':
      return { type: auth.type, username: ref(auth.username), password: ref(auth.password) }
    case 'oauth2':
      return {
        type: 'oauth2',
        grantType: grantTypes[auth.grant],
        authorizationUrl: auth.authorizationUrl,
        accessTokenUrl: auth.tokenUrl,
        clientId: ref(auth.clientId),
        ...(auth.grant === 'implicit' ? {} : { clientSecret: ref(auth.clientSecret) }),
        redirectUrl: ref(auth.redirectUrl),
        scope: auth.scopes.join(' '),
      }
  }
}

function body(value: ExportBody | undefined): Record<string, unknown> {
  if (value === undefined) return {}
  switch (value.kind) {
    case 'json':
    case 'text':
      return { mimeType: value.mediaType, text: value.text }
    case 'form':
    case 'multipart':
      return {
        mimeType:
          value.kind === 'form' ? 'application/x-www-form-urlencoded' : 'multipart/form-data',
        params: value.fields.map((f) => ({
          name: f.name,
          value: f.value,
          ...(f.file ? { type: 'file', fileName: '' } : {}),
          disabled: !f.enabled,
          ...(f.description ? { description: f.description } : {}),
        })),
      }
    case 'file':
      return { mimeType: value.mediaType, fileName: '' }
  }
}

function requestResource(
  request: ExportRequest,
  parentId: string,
  id: (key: string) => string,
): InsomniaResource {
  const path = request.path
    .map((segment) => segment.map((p) => (p.kind === 'text' ? p.text : ref(p.variable))).join(''))
    .join('/')
  const parameters = request.query.map((q) => ({
    name: q.name,
    value: q.value,
    disabled: !q.enabled,
    ...(q.description ? { description: q.description } : {}),
  }))
  const headers = request.headers.map((h) => ({
    name: h.name,
    value: h.value,
    disabled: !h.enabled,
    ...(h.description ? { description: h.description } : {}),
  }))
  const keys = [...request.extraKeys]
  if (request.auth.type === 'apiKey') {
    keys.unshift({ in: request.auth.in, name: request.auth.name, variable: request.auth.value })
  }
  const cookies: string[] = []
  for (const key of keys) {
    if (key.in === 'query')
      parameters.push({ name: key.name, value: ref(key.variable), disabled: false })
    else if (key.in === 'header')
      headers.push({ name: key.name, value: ref(key.variable), disabled: false })
    else cookies.push(`${key.name}=${ref(key.variable)}`)
  }
  if (cookies.length > 0)
    headers.push({ name: 'Cookie', value: cookies.join('; '), disabled: false })
  if (request.body !== undefined && request.body.kind !== 'file') {
    const mime = body(request.body).mimeType
    headers.push({ name: 'Content-Type', value: String(mime), disabled: false })
  }
  return {
    _id: `req_${id(`request:${request.key}`).replace(/-/g, '')}`,
    _type: 'request',
    parentId,
    name: request.name,
    description: request.description,
    method: request.method,
    url: `${ref('baseUrl')}/${path}`,
    parameters,
    headers,
    body: body(request.body),
    authentication: authentication(request.auth),
  }
}

function render(model: ExportModel, id: (key: string) => string): InsomniaExport {
  const workspace = `wrk_${id('collection').replace(/-/g, '')}`
  const data: Record<string, string> = {}
  const order: string[] = []
  for (const v of model.variables) {
    setOwn(data, v.name, v.value)
    order.push(v.name)
  }
  // Path parameters are environment variables too: the first example of each name.
  for (const request of [...model.folders.flatMap((f) => f.requests), ...model.requests]) {
    for (const param of request.pathParams) {
      if (Object.hasOwn(data, param.variable)) continue
      setOwn(data, param.variable, param.value)
      order.push(param.variable)
    }
  }
  const resources: InsomniaResource[] = [
    {
      _id: workspace,
      _type: 'workspace',
      parentId: null,
      name: model.name,
      description: model.description,
      scope: 'collection',
    },
    {
      _id: `env_${id('environment').replace(/-/g, '')}`,
      _type: 'environment',
      parentId: workspace,
      name: 'Base Environment',
      data,
      dataPropertyOrder: { '&': order },
      isPrivate: false,
    },
  ]
  for (const folder of model.folders) {
    const folderId = `fld_${id(`folder:${folder.name}`).replace(/-/g, '')}`
    resources.push({
      _id: folderId,
      _type: 'request_group',
      parentId: workspace,
      name: folder.name,
      description: folder.description,
      environment: {},
    })
    for (const request of folder.requests) resources.push(requestResource(request, folderId, id))
  }
  for (const request of model.requests) resources.push(requestResource(request, workspace, id))
  return { _type: 'export', __export_format: 4, __export_source: 'shapeguard', resources }
}

/**
 * Turns an OpenAPI 3.x document into an Insomnia export (format 4): a workspace, a base
 * environment holding `baseUrl`, the secrets and the path parameters, a folder per first tag and
 * a request per operation.
 * @param spec an OpenAPI 3.0 or 3.1 document object
 * @param options `seed` for stable IDs (default: random), `name`, `baseUrl`
 * @example
 * writeFileSync('api.insomnia.json', JSON.stringify(toInsomnia(spec, { seed: 'my-api' }), null, 2))
 */
export function toInsomnia(spec: unknown, options?: ClientExportOptions): InsomniaExport {
  const o = checkExportOptions(options, 'toInsomnia')
  return render(buildModel(spec, o), idSource(o.seed))
}
