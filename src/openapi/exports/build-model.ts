import { isObject } from '../../shared/is-object.js'
import { resolveSecurity } from './auth.js'
import { exportBody } from './body.js'
import {
  deref,
  entries,
  type Json,
  own,
  ownArray,
  ownObject,
  ownString,
  setOwn,
} from './document.js'
import type {
  ClientExportOptions,
  ExportFolder,
  ExportModel,
  ExportParam,
  ExportPathParam,
  ExportRequest,
} from './model.js'
import { exportParams, operationParameters, serialise } from './parameters.js'
import { parsePath } from './path-template.js'
import { identifier, inert, oneLine } from './text.js'
import { type VariableTable, variableTable } from './variables.js'

const methods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])

/** `servers[0].url` with each `{variable}` replaced by its default, without a trailing `/`. */
function serverUrl(doc: unknown): string {
  const server = ownArray(doc, 'servers')[0]
  const url = ownString(server, 'url')
  if (url === undefined || url === '') return 'http://localhost:3000'
  const variables = ownObject(server, 'variables')
  let out = ''
  let at = 0
  while (at < url.length) {
    const open = url.indexOf('{', at)
    const close = open < 0 ? -1 : url.indexOf('}', open + 1)
    if (open < 0 || close < 0) {
      out += url.slice(at)
      break
    }
    const name = url.slice(open + 1, close)
    const variable = own(variables, name)
    const fallback = ownArray(variable, 'enum').find((v) => typeof v === 'string')
    out += url.slice(at, open) + (ownString(variable, 'default') ?? fallback ?? name)
    at = close + 1
  }
  let end = out.length
  while (end > 0 && out[end - 1] === '/') end--
  return out.slice(0, end)
}

// Media types a client asks for by name: the server answers them only when `Accept` says so.
const streams = ['text/event-stream', 'application/x-ndjson']

/**
 * The `Accept` header of an operation whose success answer is a stream (SSE or NDJSON), so the
 * request in the tool receives the stream rather than a JSON answer the route may also give.
 */
function acceptHeader(doc: unknown, operation: Json): ExportParam | undefined {
  const found = new Set<string>()
  for (const [status, response] of entries(own(operation, 'responses'))) {
    if (!status.startsWith('2')) continue
    for (const [type] of entries(ownObject(deref(doc, response), 'content'))) {
      const bare = type.split(';')[0]!.trim().toLowerCase()
      if (streams.includes(bare)) found.add(bare)
    }
  }
  if (found.size === 0) return undefined
  return {
    name: 'Accept',
    value: [...found].join(', '),
    enabled: true,
    description: 'The stream this operation answers with',
  }
}

function buildRequest(
  doc: unknown,
  path: string,
  method: string,
  pathItem: Json,
  operation: Json,
  vars: VariableTable,
): ExportRequest {
  const params = operationParameters(doc, pathItem, operation)
  const used = new Set(vars.list.map((v) => v.name.toLowerCase()))
  const variableOf = (name: string) => {
    const base = identifier(name, 'param')
    let variable = base
    for (let n = 2; used.has(variable.toLowerCase()); n++) variable = `${base}${n}`
    used.add(variable.toLowerCase())
    return variable
  }
  const segments = parsePath(path, variableOf)
  const pathParams: ExportPathParam[] = []
  for (const part of segments.flat()) {
    if (part.kind !== 'param') continue
    const declared = params.find((p) => p.in === 'path' && p.name === part.name)
    const value = declared ? (serialise(doc, declared)[0]?.[1] ?? '') : ''
    pathParams.push({
      name: inert(oneLine(part.name, 200)),
      variable: part.variable,
      value: inert(oneLine(value, 2000)),
      enabled: true,
      description: declared?.description ?? '',
    })
  }
  const query = params.filter((p) => p.in === 'query').flatMap((p) => exportParams(doc, p))
  const headers: ExportParam[] = params
    .filter((p) => p.in === 'header')
    .flatMap((p) => exportParams(doc, p))
  const accept = acceptHeader(doc, operation)
  if (accept !== undefined) headers.push(accept)
  const cookies = params.filter((p) => p.in === 'cookie')
  if (cookies.length > 0) {
    const pairs = cookies.flatMap((p) => exportParams(doc, p))
    headers.push({
      name: 'Cookie',
      value: pairs.map((c) => `${c.name}=${c.value}`).join('; '),
      enabled: cookies.some((c) => c.required),
      description: 'Cookie parameters',
    })
  }
  const own_ = own(operation, 'security')
  const security = Array.isArray(own_) ? own_ : own(doc, 'security')
  const { auth, extraKeys } = resolveSecurity(doc, security, vars)
  const upper = method.toUpperCase()
  const name =
    oneLine(ownString(operation, 'summary') ?? '') ||
    oneLine(ownString(operation, 'operationId') ?? '') ||
    oneLine(`${upper} ${path}`)
  return {
    key: `${upper} ${path}`,
    name,
    method: upper,
    description: (ownString(operation, 'description') ?? '').slice(0, 100_000),
    path: segments,
    pathParams,
    query,
    headers,
    body: exportBody(doc, own(operation, 'requestBody')),
    auth,
    inheritsAuth: !Array.isArray(own_),
    extraKeys,
  }
}

/** Reads an OpenAPI 3.x document into the model the three writers render. */
export function buildModel(doc: unknown, options: ClientExportOptions = {}): ExportModel {
  const vars = variableTable()
  const info = ownObject(doc, 'info')
  const baseUrl = inert(oneLine(options.baseUrl ?? serverUrl(doc), 2000))
  vars.name('baseUrl', 'baseUrl', baseUrl, false, 'Base URL of the API (servers[0])')
  // Every scheme's variables first, so a path parameter's variable never takes a secret's name.
  for (const [name] of entries(ownObject(ownObject(doc, 'components'), 'securitySchemes'))) {
    const requirement: Json = {}
    setOwn(requirement, name, [])
    resolveSecurity(doc, [requirement], vars)
  }
  const docAuth = resolveSecurity(doc, own(doc, 'security'), vars).auth
  const folders = new Map<string, ExportFolder>()
  for (const tag of ownArray(doc, 'tags')) {
    const name = ownString(tag, 'name')
    if (name === undefined || folders.has(name)) continue
    const description = ownString(tag, 'description') ?? ''
    folders.set(name, { name: oneLine(name) || 'default', description, requests: [] })
  }
  const loose: ExportRequest[] = []
  for (const [path, rawItem] of entries(own(doc, 'paths'))) {
    const pathItem = deref(doc, rawItem)
    if (pathItem === undefined) continue
    for (const [method, operation] of entries(pathItem)) {
      if (!methods.has(method) || !isObject(operation)) continue
      const request = buildRequest(doc, path, method, pathItem, operation, vars)
      const tag = ownArray(operation, 'tags').find((t): t is string => typeof t === 'string')
      if (tag === undefined) {
        loose.push(request)
        continue
      }
      let folder = folders.get(tag)
      if (folder === undefined) {
        folder = { name: oneLine(tag) || 'default', description: '', requests: [] }
        folders.set(tag, folder)
      }
      folder.requests.push(request)
    }
  }
  const title = oneLine(options.name ?? ownString(info, 'title') ?? '') || 'API'
  return {
    name: title,
    version: oneLine(ownString(info, 'version') ?? ''),
    description: ownString(info, 'description') ?? '',
    variables: vars.list,
    folders: [...folders.values()].filter((f) => f.requests.length > 0),
    requests: loose,
    auth: docAuth,
  }
}
