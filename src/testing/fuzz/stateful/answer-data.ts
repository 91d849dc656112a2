import type { EnvelopeNames } from '../../../shared/envelope-shape.js'
import { isObject } from '../../../shared/is-object.js'
import type { Answer } from '../send-request.js'
import type { IdSource, Resource } from './links.js'

// What the stateful phase reads of an answer: its data, the id a create gave, the ids a list holds.

/** The JSON of an answer's body, or undefined. */
export function bodyOf(answer: Answer): unknown {
  try {
    return JSON.parse(answer.text)
  } catch {
    return undefined
  }
}

/** The data of an answer's body: its envelope's data field (the body itself for a shape without one). */
export function dataOf(body: unknown, envelope: EnvelopeNames): unknown {
  const [field] = envelope.data
  return field === undefined || !isObject(body) ? body : body[field]
}

const idValue = (v: unknown) =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined

// The segment after the collection's path in a Location header (absolute or not).
function fromLocation(answer: Answer, name: string): string | undefined {
  const location = answer.headers.location
  if (typeof location !== 'string') return undefined
  let pathname: string
  try {
    pathname = new URL(location, 'http://localhost').pathname
  } catch {
    return undefined
  }
  const at = pathname.split('/')
  const collection = name.split('/')
  const start = at.findIndex((_, i) => collection.every((s, j) => at[i + j] === s))
  const id = start === -1 ? undefined : at[start + collection.length]
  return id === undefined || id === '' ? undefined : decoded(id)
}

// A segment as the app meant it; one that is not valid percent-encoding (`100%`) stays as sent.
function decoded(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

// A JSON pointer (RFC 6901) into a value.
function pointer(value: unknown, path: string): unknown {
  if (path === '') return value
  let at = value
  for (const raw of path.replace(/^\//, '').split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (!isObject(at) && !Array.isArray(at)) return undefined
    at = (at as Record<string, unknown>)[key]
  }
  return at
}

// An OpenAPI runtime expression of a link: `$response.body#/…` or `$response.header.Name`.
function fromExpression(answer: Answer, body: unknown, expression: string): string | undefined {
  if (expression.startsWith('$response.body'))
    return idValue(pointer(body, decoded(expression.slice(15))))
  if (!expression.startsWith('$response.header.')) return undefined
  const value = answer.headers[expression.slice(17).toLowerCase()]
  if (typeof value !== 'string') return undefined
  return value.includes('/') ? value.split('/').filter(Boolean).pop() : value
}

/** The id a create's answer gives: where its resource says, else its Location header. */
export function idOf(
  resource: Resource,
  answer: Answer,
  body: unknown,
  envelope: EnvelopeNames,
): string | undefined {
  const id: IdSource = resource.id
  const data = dataOf(body, envelope)
  const given =
    id.kind === 'field'
      ? idValue(isObject(data) ? data[id.field] : undefined)
      : id.kind === 'link'
        ? fromExpression(answer, body, id.expression)
        : undefined
  return given ?? fromLocation(answer, resource.name)
}

/** The items of a list's data: the array it is, or the one array field of an object (a page). */
export function listItems(data: unknown): unknown[] | undefined {
  if (Array.isArray(data)) return data
  if (!isObject(data)) return undefined
  const arrays = Object.values(data).filter(Array.isArray)
  return arrays.length === 1 ? arrays[0] : undefined
}

/** Whether two JSON values are equal (key order aside). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a) || Array.isArray(b))
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((x, i) => sameJson(x, b[i]))
    )
  if (!isObject(a) || !isObject(b)) return false
  const keys = Object.keys(a)
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]))
  )
}
