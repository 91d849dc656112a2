import { buildModel } from './build-model.js'
import { idSource } from './ids.js'
import type {
  ClientExportOptions,
  ExportAuth,
  ExportBody,
  ExportModel,
  ExportRequest,
} from './model.js'
import { checkExportOptions } from './options.js'
import { colonPath, wholeParam } from './path-template.js'
import { queryText } from './text.js'

/** A Postman Collection v2.1 document, as Postman's "Import" reads it. */
export interface PostmanCollection {
  info: { _postman_id: string; name: string; description?: string; schema: string }
  item: PostmanItem[]
  auth?: PostmanAuth
  variable: PostmanVariable[]
}

export interface PostmanVariable {
  key: string
  value: string
  type: 'string'
  description?: string
}

export interface PostmanAuth {
  type: string
  [attributes: string]: unknown
}

/** A folder (`item`) or a request (`request`). */
export type PostmanItem =
  | { id: string; name: string; description?: string; item: PostmanItem[] }
  | {
      id: string
      name: string
      request: Record<string, unknown>
      response: []
    }

const schema = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json'

const grantTypes = {
  authorization_code: 'authorization_code',
  implicit: 'implicit',
  password: 'password_credentials',
  client_credentials: 'client_credentials',
} as const

function attrs(
  list: Array<[string, string]>,
): Array<{ key: string; value: string; type: 'string' }> {
  return list.map(([key, value]) => ({ key, value, type: 'string' }))
}

function postmanAuth(auth: ExportAuth): PostmanAuth {
  switch (auth.type) {
    case 'none':
      return { type: 'noauth' }
    case 'bearer':
      return { type: 'bearer', bearer: attrs([['token', `{{${auth.token}}}`]]) }
    case 'basic':
    case 'digest':
      return {
        type: auth.type,
        [auth.type]: attrs([
          ['username', `{{${auth.username}}}`],
          ['password', `{{${auth.password}}}`],
        ]),
      }
    case 'apiKey': {
      // Postman's apikey auth goes in a header or the query; a cookie key is a Cookie header.
      const cookie = auth.in === 'cookie'
      return {
        type: 'apikey',
        apikey: attrs([
          ['key', cookie ? 'Cookie' : auth.name],
          ['value', cookie ? `${auth.name}={{${auth.value}}}` : `{{${auth.value}}}`],
          ['in', auth.in === 'query' ? 'query' : 'header'],
        ]),
      }
    }
    case 'oauth2':
      return {
        type: 'oauth2',
        oauth2: attrs([
          ['grant_type', grantTypes[auth.grant]],
          ['authUrl', auth.authorizationUrl],
          ['accessTokenUrl', auth.tokenUrl],
          ['refreshTokenUrl', auth.refreshUrl],
          ['clientId', `{{${auth.clientId}}}`],
          ['clientSecret', `{{${auth.clientSecret}}}`],
          ['scope', auth.scopes.join(' ')],
          ['redirect_uri', `{{${auth.redirectUrl}}}`],
          ['addTokenTo', 'header'],
        ]),
      }
  }
}

function body(value: ExportBody): Record<string, unknown> {
  switch (value.kind) {
    case 'json':
      return { mode: 'raw', raw: value.text, options: { raw: { language: 'json' } } }
    case 'text':
      return { mode: 'raw', raw: value.text, options: { raw: { language: value.language } } }
    case 'form':
      return {
        mode: 'urlencoded',
        urlencoded: value.fields.map((f) => ({
          key: f.name,
          value: f.value,
          type: 'text',
          ...(f.enabled ? {} : { disabled: true }),
          ...(f.description ? { description: f.description } : {}),
        })),
      }
    case 'multipart':
      return {
        mode: 'formdata',
        formdata: value.fields.map((f) => ({
          key: f.name,
          ...(f.file ? { type: 'file', src: [] } : { value: f.value, type: 'text' }),
          ...(f.enabled ? {} : { disabled: true }),
          ...(f.description ? { description: f.description } : {}),
        })),
      }
    case 'file':
      return { mode: 'file', file: {} }
  }
}

function requestItem(request: ExportRequest, id: (key: string) => string): PostmanItem {
  const path = colonPath(request.path, request.pathParams).split('/')
  const query = request.query.map((q) => ({
    key: q.name,
    value: q.value,
    ...(q.enabled ? {} : { disabled: true }),
    ...(q.description ? { description: q.description } : {}),
  }))
  const header = request.headers.map((h) => ({
    key: h.name,
    value: h.value,
    type: 'text',
    ...(h.enabled ? {} : { disabled: true }),
    ...(h.description ? { description: h.description } : {}),
  }))
  for (const key of request.extraKeys) {
    const value = `{{${key.variable}}}`
    if (key.in === 'query') query.push({ key: key.name, value })
    else if (key.in === 'header') header.push({ key: key.name, value, type: 'text' })
    else header.push({ key: 'Cookie', value: `${key.name}=${value}`, type: 'text' })
  }
  const mediaType = request.body?.mediaType
  const kind = request.body?.kind
  if (mediaType !== undefined && kind !== 'multipart' && kind !== 'file') {
    header.push({ key: 'Content-Type', value: mediaType, type: 'text' })
  }
  const enabledQuery = query.filter((q) => !('disabled' in q))
  const search = enabledQuery
    .map((q) => `${queryText(q.key, true)}=${queryText(q.value, false)}`)
    .join('&')
  const raw = `{{baseUrl}}/${path.join('/')}${search ? `?${search}` : ''}`
  const whole = new Set(request.path.map(wholeParam).map((p) => p?.variable))
  const variable = request.pathParams
    .filter((p) => whole.has(p.variable))
    .map((p) => ({
      key: p.variable,
      value: p.value,
      ...(p.description ? { description: p.description } : {}),
    }))
  return {
    id: id(`request:${request.key}`),
    name: request.name,
    request: {
      method: request.method,
      header,
      url: {
        raw,
        host: ['{{baseUrl}}'],
        path,
        ...(query.length ? { query } : {}),
        ...(variable.length ? { variable } : {}),
      },
      ...(request.body ? { body: body(request.body) } : {}),
      ...(request.inheritsAuth ? {} : { auth: postmanAuth(request.auth) }),
      ...(request.description ? { description: request.description } : {}),
    },
    response: [],
  }
}

function render(model: ExportModel, id: (key: string) => string): PostmanCollection {
  const item: PostmanItem[] = model.folders.map((folder) => ({
    id: id(`folder:${folder.name}`),
    name: folder.name,
    ...(folder.description ? { description: folder.description } : {}),
    item: folder.requests.map((r) => requestItem(r, id)),
  }))
  for (const request of model.requests) item.push(requestItem(request, id))
  return {
    info: {
      _postman_id: id('collection'),
      name: model.name,
      ...(model.description ? { description: model.description } : {}),
      schema,
    },
    item,
    ...(model.auth.type === 'none' ? {} : { auth: postmanAuth(model.auth) }),
    variable: model.variables.map((v) => ({
      key: v.name,
      value: v.value,
      type: 'string',
      ...(v.description
        ? {
            description: v.secret
              ? `${v.description}: a secret, set it in your environment or vault`
              : v.description,
          }
        : {}),
    })),
  }
}

/**
 * Turns an OpenAPI 3.x document into a Postman Collection v2.1: a folder per first tag, a
 * request per operation, a `baseUrl` variable and variables for every secret.
 * @param spec an OpenAPI 3.0 or 3.1 document object
 * @param options `seed` for stable IDs (default: random), `name`, `baseUrl`
 * @example
 * writeFileSync('api.postman.json', JSON.stringify(toPostman(spec, { seed: 'my-api' }), null, 2))
 */
export function toPostman(spec: unknown, options?: ClientExportOptions): PostmanCollection {
  const o = checkExportOptions(options, 'toPostman')
  return render(buildModel(spec, o), idSource(o.seed))
}
