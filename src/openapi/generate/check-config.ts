import { parseShape } from '../../shared/envelope-shape.js'
import { optionError } from '../../shared/error-codes.js'
import { eventsProblem } from '../../shared/event-names.js'
import { isFileField } from '../../shared/file-field.js'
import { isObject } from '../../shared/is-object.js'
import type { MisuseCode } from '../../shared/misuse-codes.js'
import { checkProblemTypeBase } from '../../shared/problem-details.js'
import { checkSecurity } from '../../shared/resolve-schemes.js'
import { knownKeys } from '../docs/check.js'
import { refuseSecurityOption } from './security.js'
import type { OpenAPIConfig, OperationOptions } from './types.js'

const CONFIG_KEYS: readonly (keyof OpenAPIConfig)[] = [
  'title',
  'version',
  'description',
  'termsOfService',
  'contact',
  'license',
  'servers',
  'prefix',
  'routes',
  'app',
  'auth',
  'defaultSecurity',
  'tags',
  'externalDocs',
  'components',
  'response',
  'errors',
  'extensions',
  'onWarning',
]
// shapeguard()'s own `response` options, so the app's can be passed as they are.
const RESPONSE_KEYS: readonly (keyof NonNullable<OpenAPIConfig['response']>)[] = [
  'shape',
  'statusCodes',
  'includeRequestId',
]

// shapeguard()'s own `errors` options, so the app's can be passed as they are.
const ERRORS_KEYS: readonly (keyof NonNullable<OpenAPIConfig['errors']>)[] = [
  'format',
  'problemTypeBase',
  'fallbackMessage',
  'onError',
]

const fail = (
  option: string,
  expected: string,
  code: MisuseCode = 'SG_ERR_INVALID_OPTION',
): never => {
  throw optionError(code, `shapeguard: generateOpenAPI(): ${option} must be ${expected}`)
}

// As shapeguard() takes it: each field a token, none named __proto__ (a prototype, not a field).
function checkShape(shape: unknown): void {
  if (shape === undefined) return
  if (!isObject(shape))
    fail('response.shape', 'an object of field names and tokens', 'SG_ERR_ENVELOPE_SHAPE')
  parseShape(shape as object, { dataPaths: false }, (fault) =>
    fault.kind === 'proto'
      ? fail('response.shape', 'without a field named __proto__', 'SG_ERR_ENVELOPE_SHAPE')
      : fail(
          `response.shape.${fault.field}`,
          '{success}, {data} or {message}',
          'SG_ERR_ENVELOPE_SHAPE',
        ),
  )
}

const isStringArray = (v: unknown): v is readonly string[] =>
  Array.isArray(v) && v.every((s) => typeof s === 'string')

/** Checks the configuration once, before anything is written; throws a TypeError naming the option. */
export function checkConfig(config: OpenAPIConfig): void {
  if (!isObject(config)) fail('config', 'an object { title, version, routes?, app? }')
  refuseSecurityOption(config)
  knownKeys(config, CONFIG_KEYS, 'generateOpenAPI()')
  for (const key of ['title', 'version'] as const) {
    if (typeof config[key] !== 'string' || config[key] === '') fail(key, 'a non-empty string')
  }
  // A missing leading slash is added and a trailing one dropped where paths are joined
  // (route-key.ts), as Fastify and NestJS treat a route prefix: 'api/v2/' is '/api/v2'.
  if (
    config.prefix !== undefined &&
    (typeof config.prefix !== 'string' || /[\s?#]/.test(config.prefix))
  )
    fail('prefix', "a URL path such as '/api/v2' (no spaces, '?' or '#')")
  if (config.routes !== undefined && !isObject(config.routes))
    fail('routes', 'an object of "<METHOD> /path" keys')
  if (config.routes === undefined && config.app === undefined)
    fail('routes', 'given (or app)', 'SG_ERR_MISSING_OPTION')
  if (
    config.servers !== undefined &&
    (!Array.isArray(config.servers) ||
      !config.servers.every((s) => isObject(s) && typeof s.url === 'string'))
  )
    fail('servers', 'an array of { url, description? }')
  if (
    config.tags !== undefined &&
    (!Array.isArray(config.tags) ||
      !config.tags.every((t) => isObject(t) && typeof t.name === 'string'))
  )
    fail('tags', 'an array of { name, description?, externalDocs? }')
  if (config.onWarning !== undefined && typeof config.onWarning !== 'function')
    fail('onWarning', 'a function')
  if (config.response !== undefined) {
    if (!isObject(config.response)) fail('response', 'an object { shape?, statusCodes? }')
    knownKeys(config.response, RESPONSE_KEYS, 'generateOpenAPI()', 'response.')
    checkShape(config.response.shape)
  }
  if (config.errors !== undefined) {
    if (!isObject(config.errors)) fail('errors', 'an object { format?, problemTypeBase? }')
    knownKeys(config.errors, ERRORS_KEYS, 'generateOpenAPI()', 'errors.')
    const format = config.errors.format
    if (format !== undefined && format !== 'envelope' && format !== 'problem+json')
      fail('errors.format', "'envelope' or 'problem+json'")
    checkProblemTypeBase(config.errors.problemTypeBase, 'generateOpenAPI(): errors.problemTypeBase')
  }
  checkExtensions('extensions', config.extensions)
}

/**
 * Checks one route's documentation options; `where` names the route (`routes["GET /x"]`), its
 * `security` names `schemes` only.
 */
export function checkOperation(
  where: string,
  route: OperationOptions,
  schemes: ReadonlySet<string>,
): void {
  if (!isObject(route)) fail(where, 'a route definition object')
  if (route.tags !== undefined && !isStringArray(route.tags))
    fail(`${where}.tags`, 'an array of strings')
  checkSecurity(route.security, `generateOpenAPI(): ${where}.security`, schemes)
  const bodyType = route.bodyType
  if (
    bodyType !== undefined &&
    bodyType !== 'json' &&
    bodyType !== 'multipart' &&
    bodyType !== 'form'
  )
    fail(`${where}.bodyType`, "'json', 'multipart' or 'form'")
  if (route.operationId !== undefined && !/^[A-Za-z_][\w.-]*$/.test(route.operationId))
    fail(`${where}.operationId`, 'an identifier')
  const files = (route as { files?: unknown }).files
  if (files !== undefined) {
    if (!isObject(files)) fail(`${where}.files`, 'an object of field name → file() or file.many()')
    for (const [name, field] of Object.entries(files as object)) {
      if (!isFileField(field))
        fail(`${where}.files.${name}`, 'a field made by file() or file.many()')
    }
  }
  checkEvents(where, (route as { events?: unknown }).events)
  if (route.responseHeaders !== undefined && !isObject(route.responseHeaders))
    fail(`${where}.responseHeaders`, 'an object of header name → { description, schema }')
  checkExtensions(`${where}.extensions`, route.extensions)
}

// The runtime's rule: each name is written on an `event:` line.
function checkEvents(where: string, events: unknown): void {
  const problem = events === undefined ? undefined : eventsProblem(events)
  if (problem !== undefined)
    throw optionError('SG_ERR_INVALID_OPTION', `shapeguard: generateOpenAPI(): ${where}.${problem}`)
}

function checkExtensions(option: string, extensions: unknown): void {
  if (extensions !== undefined && !isObject(extensions)) fail(option, 'an object of x- keys')
}
