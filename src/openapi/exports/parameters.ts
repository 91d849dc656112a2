import { isObject } from '../../shared/is-object.js'
import { deref, entries, type Json, own, ownObject, ownString } from './document.js'
import { sampleSchema } from './example.js'
import type { ExportParam } from './model.js'
import { inert, oneLine } from './text.js'

/** A parameter object read from the document, its `$ref` followed. */
export interface Parameter {
  readonly name: string
  readonly in: 'path' | 'query' | 'header' | 'cookie'
  readonly required: boolean
  readonly description: string
  readonly raw: Json
}

const places = new Set(['path', 'query', 'header', 'cookie'])
// OpenAPI: header parameters with these names SHALL be ignored (the body and auth set them).
const ignoredHeaders = new Set(['accept', 'content-type', 'authorization'])

/** The operation's parameters: the path item's, overridden by the operation's (same name and in). */
export function operationParameters(doc: unknown, pathItem: Json, operation: Json): Parameter[] {
  const found = new Map<string, Parameter>()
  for (const list of [own(pathItem, 'parameters'), own(operation, 'parameters')]) {
    if (!Array.isArray(list)) continue
    for (const entry of list.slice(0, 256)) {
      const raw = deref(doc, entry)
      const name = ownString(raw, 'name')
      const place = ownString(raw, 'in')
      if (raw === undefined || name === undefined || place === undefined || !places.has(place))
        continue
      if (place === 'header' && ignoredHeaders.has(name.toLowerCase())) continue
      found.set(`${place}\0${name}`, {
        name,
        in: place as Parameter['in'],
        required: place === 'path' || own(raw, 'required') === true,
        description: oneLine(ownString(raw, 'description') ?? '', 1000),
        raw,
      })
    }
  }
  return [...found.values()]
}

function exampleOf(doc: unknown, param: Json): unknown {
  if (Object.hasOwn(param, 'example')) return param.example
  for (const [, example] of entries(own(param, 'examples'))) {
    const value = own(deref(doc, example), 'value')
    if (value !== undefined) return value
  }
  const content = ownObject(param, 'content')
  const media = content && entries(content)[0]?.[1]
  const schema = own(param, 'schema') ?? own(media, 'schema')
  const sampled = sampleSchema(doc, schema)
  return isObject(media) && sampled !== undefined ? JSON.stringify(sampled) : sampled
}

function scalar(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  try {
    return JSON.stringify(value) ?? ''
  } catch {
    return ''
  }
}

/**
 * The name-value pairs a parameter's example is sent as, following its `style` and `explode`
 * (OpenAPI's defaults: `form` and exploded for query and cookie, `simple` for path and header).
 */
export function serialise(doc: unknown, param: Parameter): Array<[string, string]> {
  const value = exampleOf(doc, param.raw)
  const style =
    ownString(param.raw, 'style') ??
    (param.in === 'query' || param.in === 'cookie' ? 'form' : 'simple')
  const explodeRaw = own(param.raw, 'explode')
  const explode = typeof explodeRaw === 'boolean' ? explodeRaw : style === 'form'
  if (Array.isArray(value)) {
    const items = value.slice(0, 100).map(scalar)
    if (param.in === 'query' && explode && (style === 'form' || style === 'deepObject')) {
      return items.map((item) => [param.name, item])
    }
    const joiner = style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : ','
    return [[param.name, items.join(joiner)]]
  }
  if (isObject(value)) {
    const pairs = entries(value).slice(0, 100)
    if (param.in === 'query' && style === 'deepObject') {
      return pairs.map(([k, v]) => [`${param.name}[${k}]`, scalar(v)])
    }
    if (param.in === 'query' && explode) return pairs.map(([k, v]) => [k, scalar(v)])
    const sep = explode ? '=' : ','
    return [[param.name, pairs.map(([k, v]) => `${k}${sep}${scalar(v)}`).join(',')]]
  }
  return [[param.name, scalar(value)]]
}

/** A parameter as query entries or headers: each pair, made inert, enabled when required. */
export function exportParams(doc: unknown, param: Parameter): ExportParam[] {
  return serialise(doc, param).map(([name, value]) => ({
    name: inert(oneLine(name, 200)),
    value: inert(param.in === 'query' ? value.replace(/[\r\n]/g, ' ') : oneLine(value, 2000)),
    enabled: param.required,
    description: param.description,
  }))
}
