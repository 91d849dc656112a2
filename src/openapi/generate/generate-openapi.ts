import { type Discovery, discoverRoutes } from '../../runtime/pipeline/discover-routes.js'
import { checkConfig, checkOperation } from './check-config.js'
import { ErrorVariants } from './declared-errors.js'
import { extensionsOf } from './extensions.js'
import { type OperationContext, operationOf } from './operation.js'
import { type ErrorStyle, errorComponents, errorResponses } from './responses.js'
import { parseRouteKeys, type RouteKey } from './route-key.js'
import { SchemaWriter } from './schemas.js'
import { securityOf } from './security.js'
import type {
  EnvelopeShape,
  OpenAPIConfig,
  OpenAPIDocument,
  OpenAPIRoute,
  WarningSink,
} from './types.js'

const defaultWarning: WarningSink = (message) => console.warn(message)

/** The routes to document: explicit `routes` first, then the app's (same method and path: explicit wins). */
function routesOf(
  config: OpenAPIConfig,
  prefix: string,
  warn: WarningSink,
  discovery: Discovery | undefined,
  schemes: ReadonlySet<string>,
) {
  const out: { key: RouteKey; route: OpenAPIRoute; where: string }[] = []
  const taken = new Set<string>()
  const add = (key: RouteKey, route: OpenAPIRoute, where: string, explicit: boolean) => {
    const id = `${key.method} ${key.path}`
    if (!taken.has(id)) {
      taken.add(id)
      out.push({ key, route, where })
    } else if (explicit) {
      warn(
        `shapeguard: ${where} documents ${key.method.toUpperCase()} ${key.path} again; the first is kept`,
      )
    }
  }
  for (const [key, route] of Object.entries(config.routes ?? {})) {
    const where = `routes[${JSON.stringify(key)}]`
    const keys = parseRouteKeys(key, prefix)
    checkOperation(where, route, schemes)
    for (const parsed of keys) add(parsed, route, where, true)
  }
  if (discovery !== undefined) {
    const { routes, skipped } = discovery
    for (const line of skipped) warn(`shapeguard: generateOpenAPI app: ${line} is not documented`)
    for (const found of routes) {
      const where = `${found.method.toUpperCase()} ${found.path}`
      checkOperation(where, found.route as OpenAPIRoute, schemes)
      for (const parsed of parseRouteKeys(`${found.method} ${found.path}`, prefix))
        add(parsed, found.route as OpenAPIRoute, where, false)
    }
  }
  return out
}

/** What the document says of every answer: the error style and the success envelope's options. */
interface Answers {
  readonly style: ErrorStyle
  readonly response: NonNullable<OpenAPIConfig['response']>
}

// The statuses the runtime sends where `response.statusCodes` says nothing.
const defaultStatusCodes: Readonly<Record<string, number>> = {
  GET: 200,
  POST: 201,
  PUT: 200,
  PATCH: 200,
  DELETE: 200,
}

/** Whether two `response.shape` or `response.statusCodes` values say the same. */
function sameOption(option: 'shape' | 'statusCodes', a: unknown, b: unknown): boolean {
  const text = (value: unknown) => {
    const entries = Object.entries(
      option === 'statusCodes'
        ? { ...defaultStatusCodes, ...(value as object | undefined) }
        : ((value as object | undefined) ?? {}),
    )
    return JSON.stringify(entries.sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
  }
  return text(a) === text(b)
}

/**
 * How the document writes answers: `errors` and `response` as given, else as the app's
 * shapeguard() answers (the first one mounted), else the defaults. A document that says
 * otherwise than the app is warned about.
 */
function answersOf(
  config: OpenAPIConfig,
  discovery: Discovery | undefined,
  warn: WarningSink,
): Answers {
  const found = discovery?.answers ?? []
  const app = found[0]
  const given = config.errors?.format
  const format = given ?? app?.format ?? 'envelope'
  const which = (explicit: boolean, option: string) =>
    explicit ? `, as ${option} says` : ', the first mounted'
  if (found.some((e) => e.format !== format)) {
    const formats = [...new Set(found.map((e) => `'${e.format}'`))].join(' and ')
    warn(
      `shapeguard: generateOpenAPI app: its shapeguard() answers errors as ${formats}; the document describes '${format}'${which(given !== undefined, 'errors.format')}`,
    )
  }
  const problemTypeBase =
    config.errors?.problemTypeBase ?? (app?.format === format ? app.problemTypeBase : undefined)
  const shape = config.response?.shape ?? (app?.shape as EnvelopeShape | undefined)
  const statusCodes = config.response?.statusCodes ?? app?.statusCodes
  const differs = (option: 'shape' | 'statusCodes', value: unknown) => {
    if (found.some((e) => !sameOption(option, e[option], value)))
      warn(
        `shapeguard: generateOpenAPI app: its shapeguard() has another response.${option} than the document describes${which(config.response?.[option] !== undefined, `response.${option}`)}`,
      )
  }
  differs('shape', shape)
  differs('statusCodes', statusCodes)
  const response = {
    ...config.response,
    ...(shape === undefined ? {} : { shape }),
    ...(statusCodes === undefined ? {} : { statusCodes }),
  } as NonNullable<OpenAPIConfig['response']>
  return { style: { format, shape, problemTypeBase }, response }
}

/** The entries of `defs` that something in `from` refers to as `<prefix><name>`. */
function used<T>(defs: Record<string, T>, prefix: string, from: unknown[]): Record<string, T> {
  const text = JSON.stringify(from)
  return Object.fromEntries(
    Object.entries(defs).filter(([name]) => text.includes(`"${prefix}${name}"`)),
  )
}

function info(config: OpenAPIConfig): Record<string, unknown> {
  const out: Record<string, unknown> = { title: config.title, version: config.version }
  if (config.description !== undefined) out.description = config.description
  if (config.termsOfService !== undefined) out.termsOfService = config.termsOfService
  if (config.contact !== undefined) out.contact = { ...config.contact }
  if (config.license !== undefined) out.license = { ...config.license }
  return out
}

/**
 * Writes the OpenAPI 3.1 document of an API: the routes given in `routes` and those
 * registered with `handle()`/`validate()` on `app`, every schema (zod, valibot, yup) through the
 * same IR the validators are compiled from, in input mode for requests and output mode for
 * responses, recursive and named schemas under `components/schemas`. Needs nothing of the
 * runtime: call it at build time, in a test, or when the server starts.
 * @param config title, version, routes and/or app, auth, tags, servers, …
 * @example const doc = generateOpenAPI({ title: 'Shop', version: '1.0.0', routes: { 'POST /users': createUser } })
 */
export function generateOpenAPI(config: OpenAPIConfig): OpenAPIDocument {
  checkConfig(config)
  const warn = config.onWarning ?? defaultWarning
  const prefix = config.prefix ?? ''
  const schemas = new SchemaWriter(warn)
  for (const [name, schema] of Object.entries(config.components ?? {})) schemas.name(name, schema)
  const discovery = config.app === undefined ? undefined : discoverRoutes(config.app)
  const { style, response } = answersOf(config, discovery, warn)
  const security = securityOf(config, discovery, warn)
  const shared = errorResponses(style.format)
  const ctx: OperationContext = {
    config: { ...config, response },
    schemas,
    warn,
    operationIds: new Set(),
    security,
    errors: new ErrorVariants(style, schemas),
    shared,
    format: style.format,
    app: discovery?.answers[0],
  }
  const paths: Record<string, Record<string, unknown>> = {}
  const names = new Set(Object.keys(security.schemes))
  for (const { key, route, where } of routesOf(config, prefix, warn, discovery, names)) {
    paths[key.path] ??= {}
    paths[key.path]![key.method] = operationOf(ctx, key, route, where)
  }
  ctx.errors.finish(schemas.components)

  // Only the shared responses and error schemas some operation uses (401/403 and 429 may be none).
  const responses = used(shared, '#/components/responses/', [paths])
  const envelopes = errorComponents(style)
  const from = [paths, responses, schemas.components]
  const direct = used(envelopes, '#/components/schemas/', from)
  const components: Record<string, Record<string, unknown>> = {
    schemas: {
      ...used(envelopes, '#/components/schemas/', [...from, direct]),
      ...schemas.components,
    },
    responses,
  }
  if (names.size > 0) components.securitySchemes = structuredClone(security.schemes)

  const doc: Record<string, unknown> = { openapi: '3.1.0', info: info(config) }
  if (config.servers !== undefined) doc.servers = config.servers.map((s) => ({ ...s }))
  if (config.tags !== undefined) doc.tags = structuredClone(config.tags)
  if (config.externalDocs !== undefined) doc.externalDocs = { ...config.externalDocs }
  doc.paths = paths
  doc.components = components
  Object.assign(doc, extensionsOf(config.extensions, 'extensions', warn))
  return doc as OpenAPIDocument
}
