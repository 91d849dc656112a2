import type { JsonSchema } from '../../engine/json-schema/json-schema-types.js'
import type { Discovery } from '../../runtime/pipeline/discover-routes.js'
import { resolveDeprecation } from '../../shared/deprecation.js'
import { bodyMethods, timeLimits } from '../../shared/error-statuses.js'
import { requirementObjects } from '../../shared/resolve-schemes.js'
import { declaredErrors, type ErrorVariants } from './declared-errors.js'
import { extensionsOf } from './extensions.js'
import { type ParameterPart, parametersOf } from './parameters.js'
import { requestBodyOf } from './request-body.js'
import { errorRefs, formats, successEnvelope } from './responses.js'
import { operationIdOf, type RouteKey } from './route-key.js'
import type { SchemaWriter } from './schemas.js'
import type { DocumentSecurity } from './security.js'
import { lastEventIdParameter, streamAnswer } from './streams.js'
import type { ErrorFormat, OpenAPIConfig, OpenAPIRoute, WarningSink } from './types.js'

/** What every operation of one document shares. */
export interface OperationContext {
  readonly config: OpenAPIConfig
  readonly schemas: SchemaWriter
  readonly warn: WarningSink
  /** operationIds given so far (each must be unique in the document). */
  readonly operationIds: Set<string>
  /** The schemes documented and the requirement of a route without its own. */
  readonly security: DocumentSecurity
  /** The declared errors' variants of the document. */
  readonly errors: ErrorVariants
  /** The shared error responses, which a declared error's response may extend. */
  readonly shared: Record<string, unknown>
  /** How the app answers errors (a stream that fails after it started ends with that body). */
  readonly format: ErrorFormat
  /** The app's shapeguard() (the first mounted), for its `timeout` and `overload`; undefined without `app`. */
  readonly app: Discovery['answers'][number] | undefined
}

/**
 * The status the runtime sends a success with, the only 2xx an operation documents:
 * `response.statusCodes`, else 201 for POST, 200.
 */
function successStatus(config: OpenAPIConfig, method: string): string {
  const given = (config.response?.statusCodes as Record<string, number> | undefined)?.[
    method.toUpperCase()
  ]
  return String(given ?? (method === 'post' ? 201 : 200))
}

function uniqueId(ctx: OperationContext, wanted: string, where: string): string {
  let id = wanted
  for (let n = 2; ctx.operationIds.has(id); n++) id = `${wanted}${n}`
  if (id !== wanted)
    ctx.warn(`shapeguard: ${where}: operationId ${wanted} is taken; documented as ${id}`)
  ctx.operationIds.add(id)
  return id
}

const intHeader = (description: string) => ({
  description,
  schema: { type: 'integer', minimum: 0 },
})

const deprecationOf = (route: OpenAPIRoute, where: string) =>
  resolveDeprecation(
    route.deprecated,
    route.externalDocs,
    `generateOpenAPI(): ${where}: deprecated`,
  )

function successHeaders(ctx: OperationContext, route: OpenAPIRoute, where: string) {
  const headers: Record<string, unknown> = {}
  if (route.rateLimit !== undefined) {
    headers['RateLimit-Limit'] = intHeader('Requests allowed per window.')
    headers['RateLimit-Remaining'] = intHeader('Requests left in the window.')
    headers['RateLimit-Reset'] = intHeader('Seconds until the window ends.')
  }
  if (route.cache !== undefined) {
    headers['Cache-Control'] = {
      description: 'Caching rules of this answer.',
      schema: { type: 'string' },
    }
  }
  const deprecation = deprecationOf(route, where)
  if (deprecation !== undefined) {
    headers.Deprecation = {
      description: `When the operation was deprecated (RFC 9745): ${deprecation.deprecation}.`,
      schema: { type: 'string' },
    }
    if (deprecation.sunset !== undefined)
      headers.Sunset = {
        description: `When the operation stops answering (RFC 8594): ${deprecation.sunset}.`,
        schema: { type: 'string' },
      }
  }
  for (const [name, header] of Object.entries(route.responseHeaders ?? {})) {
    const h: Record<string, unknown> = {}
    if (header.description !== undefined) h.description = header.description
    h.schema =
      header.schema === undefined
        ? { type: 'string' }
        : ctx.schemas.write(header.schema, 'output', `${where} responseHeaders.${name}`)
    headers[name] = h
  }
  return headers
}

/**
 * The success answers: the JSON envelope under the status the runtime sends (unless the route
 * only streams), and a stream's media types under 200, which a stream is always sent with.
 */
function successResponses(
  ctx: OperationContext,
  key: RouteKey,
  route: OpenAPIRoute,
  where: string,
): Record<string, Record<string, unknown>> {
  const { config, schemas } = ctx
  const out: Record<string, Record<string, unknown>> = {}
  const response = route.response ?? route.sends
  if ((route.events === undefined && route.stream === undefined) || response !== undefined) {
    const data: JsonSchema =
      response === undefined ? {} : schemas.write(response, 'output', `${where} response`)
    out[successStatus(config, key.method)] = {
      description: 'Success',
      content: { 'application/json': { schema: successEnvelope(config.response?.shape, data) } },
    }
  }
  const stream = streamAnswer(schemas, where, route, formats[ctx.format].error)
  if (stream !== undefined) {
    const json = out['200']
    out['200'] = {
      description: json === undefined ? stream.description : `Success. ${stream.description}`,
      content: { ...(json?.content as object | undefined), ...stream.content },
    }
  }
  const success = route.links && out[successStatus(config, key.method)]
  if (success) success.links = structuredClone(route.links)
  const headers = successHeaders(ctx, route, where)
  if (Object.keys(headers).length > 0) {
    for (const answer of Object.values(out)) answer.headers = structuredClone(headers)
  }
  return out
}

const parts: readonly ParameterPart[] = ['params', 'query', 'headers', 'cookies', 'signedCookies']

// OpenAPI allows one parameter per name and location: a cookie both plain and signed is one.
function uniqueParameters(list: unknown[], where: string, warn: WarningSink): unknown[] {
  const seen = new Set<string>()
  return list.filter((p) => {
    const { name, in: location } = p as { name: string; in: string }
    const id = `${location}\0${name}`
    if (!seen.has(id)) {
      seen.add(id)
      return true
    }
    warn(
      `shapeguard: ${where} declares the cookie ${JSON.stringify(name)} in cookies and signedCookies; documented once`,
    )
    return false
  })
}

// The methods whose requests the content-type guard and the body parser see with a body.

/**
 * One operation of the document: its id, documentation fields, parameters, request body,
 * success response under the status the runtime sends, the error responses that apply,
 * security and `x-` extensions.
 */
export function operationOf(
  ctx: OperationContext,
  key: RouteKey,
  route: OpenAPIRoute,
  where: string,
): Record<string, unknown> {
  const { schemas, warn } = ctx
  const op: Record<string, unknown> = {}
  if (route.tags !== undefined) op.tags = [...route.tags]
  if (route.summary !== undefined) op.summary = route.summary
  if (route.description !== undefined) op.description = route.description
  if (route.externalDocs !== undefined) op.externalDocs = { ...route.externalDocs }
  op.operationId = uniqueId(ctx, route.operationId ?? operationIdOf(key.method, key.ownPath), where)

  const parameters = uniqueParameters(
    parts.flatMap((part) => parametersOf(schemas, where, part, route[part], key.params, warn)),
    where,
    warn,
  )
  const lastEventId = lastEventIdParameter(route, parameters)
  if (lastEventId !== undefined) parameters.push(lastEventId)
  if (parameters.length > 0) op.parameters = parameters
  if (route.body !== undefined || route.files !== undefined)
    op.requestBody = requestBodyOf(schemas, where, route, warn)

  const security = route.security ?? ctx.security.defaultSecurity
  const responses: Record<string, unknown> = {
    ...successResponses(ctx, key, route, where),
    ...errorRefs({
      secured: security.length > 0,
      body: route.body !== undefined || bodyMethods.has(key.method),
      files: route.files !== undefined,
      rateLimited: route.rateLimit !== undefined,
      failsClosed: route.rateLimit?.store !== undefined && route.rateLimit.failOpen === false,
      timed: timeLimits(route.timeout, ctx.app?.timeout).handler,
      overloaded: ctx.app?.overload !== undefined,
    }),
  }
  const declared = declaredErrors(route.errors, `generateOpenAPI(): ${where}`)
  ctx.errors.document(declared, where, responses, ctx.shared)
  op.responses = responses
  const deprecation = deprecationOf(route, where)
  if (deprecation !== undefined) op.deprecated = true
  // The extension oasdiff and `shapeguard diff` read: removing the route after this day breaks no one.
  if (deprecation?.sunsetDay !== undefined) op['x-sunset'] = deprecation.sunsetDay
  // Each operation states its security: `[]` documents a public route even beside secured ones.
  op.security = requirementObjects(security)
  Object.assign(op, extensionsOf(route.extensions, `${where}.extensions`, warn))
  return op
}
