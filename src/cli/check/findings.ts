import { bodyMethods } from '../../shared/error-statuses.js'
import { isObject } from '../../shared/is-object.js'

/** One thing `check` reports: an error fails the run, a warning does only with --strict. */
export interface Finding {
  readonly level: 'error' | 'warning'
  /** `POST /users`, or `document`. */
  readonly where: string
  readonly message: string
}

type Json = Record<string, unknown>

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

const isOpen = (schema: unknown) => isObject(schema) && Object.keys(schema).length === 0

/**
 * Whether a success answer leaves its data open: no JSON schema, an empty one, or an envelope
 * whose data property is the empty schema (a route without a response schema).
 */
function openData(response: unknown): boolean {
  const content = isObject(response) ? response.content : undefined
  const json = isObject(content) ? content['application/json'] : undefined
  const schema = isObject(json) ? json.schema : undefined
  if (schema === undefined || isOpen(schema)) return true
  const properties = isObject(schema) ? schema.properties : undefined
  return isObject(properties) && Object.values(properties).some(isOpen)
}

function operationFindings(where: string, method: string, op: Json): Finding[] {
  const warn = (message: string): Finding => ({ level: 'warning', where, message })
  const found: Finding[] = []
  if (bodyMethods.has(method) && op.requestBody === undefined)
    found.push(
      warn(
        'no request body schema: the body reaches the handler as the client sent it (give the route a body schema, z.object({}) for none)',
      ),
    )
  const responses = isObject(op.responses) ? op.responses : {}
  const statuses = Object.keys(responses)
  const success = statuses.filter((s) => /^2(?:\d\d|XX)$/.test(s))
  if (success.length === 0) found.push(warn('no success response documented'))
  else if (success.some((s) => openData(responses[s])))
    found.push(
      warn(
        'no response schema: its data is neither stripped nor typed (give the route a response schema)',
      ),
    )
  if (!statuses.some((s) => /^(?:[45](?:\d\d|XX)|default)$/.test(s)))
    found.push(warn('no error status documented'))
  return found
}

/** The findings of every operation of an OpenAPI document, in document order. */
export function documentFindings(doc: unknown): Finding[] {
  const paths = isObject(doc) && isObject(doc.paths) ? doc.paths : {}
  const found: Finding[] = []
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue
    for (const method of methods) {
      const op = item[method]
      if (isObject(op))
        found.push(...operationFindings(`${method.toUpperCase()} ${path}`, method, op))
    }
  }
  return found
}

/** How many operations a document has. */
export function operationCount(doc: unknown): number {
  const paths = isObject(doc) && isObject(doc.paths) ? doc.paths : {}
  return Object.values(paths).reduce<number>(
    (n, item) => n + (isObject(item) ? methods.filter((m) => isObject(item[m])).length : 0),
    0,
  )
}
