import { isObject } from '../../shared/is-object.js'
import { deref, entries, type Json, own, ownArray, ownObject, ownString } from './document.js'
import { sampleSchema } from './example.js'
import type { ExportBody, ExportField } from './model.js'
import { mayMatch } from './quick-match.js'
import { flatten } from './schema-merge.js'
import { inert, inertJson, oneLine, wellFormed } from './text.js'

type Kind = ExportBody['kind']

function kindOf(mediaType: string): Kind {
  const type = mediaType.split(';')[0]!.trim().toLowerCase()
  if (type === 'application/json' || type.endsWith('+json') || type === '*/*') return 'json'
  if (type === 'application/x-www-form-urlencoded') return 'form'
  if (type.startsWith('multipart/')) return 'multipart'
  if (type.startsWith('text/') || type.endsWith('/xml') || type.endsWith('+xml')) return 'text'
  if (type === 'application/javascript') return 'text'
  return 'file'
}

const preference: Kind[] = ['json', 'form', 'multipart', 'text', 'file']

function languageOf(mediaType: string): 'text' | 'xml' | 'html' | 'javascript' {
  if (/xml/i.test(mediaType)) return 'xml'
  if (/html/i.test(mediaType)) return 'html'
  if (/javascript/i.test(mediaType)) return 'javascript'
  return 'text'
}

// The media type's own example when the schema may accept it, else one made from the schema.
function exampleOf(doc: unknown, media: Json): unknown {
  const schema = own(media, 'schema')
  const given: unknown[] = []
  if (Object.hasOwn(media, 'example')) given.push(media.example)
  for (const [, example] of entries(own(media, 'examples')))
    given.push(own(deref(doc, example), 'value'))
  const ctx = { doc, refs: [], work: 0 }
  for (const value of given) {
    if (value !== undefined && (schema === undefined || mayMatch(schema, value, ctx))) return value
  }
  return sampleSchema(doc, schema)
}

function stringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value, null, 2)
  } catch {
    // A value JSON cannot write (a BigInt, a cycle in a document built in code).
    return undefined
  }
}

function isFile(doc: unknown, schema: unknown, encoding: unknown): boolean {
  const contentType = ownString(encoding, 'contentType')
  if (contentType !== undefined && !/^(text\/|application\/json)/i.test(contentType)) return true
  const flat = flatten(schema, { doc, refs: [], work: 0 }, [])
  if (typeof flat === 'string') return false
  const items =
    own(flat, 'type') === 'array'
      ? flatten(own(flat, 'items'), { doc, refs: [], work: 0 }, [])
      : flat
  if (typeof items === 'string') return false
  const format = own(items, 'format')
  return (
    format === 'binary' ||
    (own(items, 'contentMediaType') !== undefined && own(items, 'contentEncoding') === undefined)
  )
}

function fieldText(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value
  return stringify(value)?.replace(/\n\s*/g, '') ?? ''
}

function fields(doc: unknown, media: Json): ExportField[] {
  const schema = own(media, 'schema')
  const flat = flatten(schema, { doc, refs: [], work: 0 }, [])
  if (typeof flat === 'string') return []
  const value = exampleOf(doc, media)
  const required = new Set(ownArray(flat, 'required'))
  const encoding = ownObject(media, 'encoding')
  const out: ExportField[] = []
  const names = new Set<string>()
  for (const [name, prop] of entries(own(flat, 'properties')).slice(0, 256)) {
    names.add(name)
    const file = isFile(doc, prop, own(encoding, name))
    const isRequired = required.has(name)
    const sampled = own(value, name) ?? (isRequired ? sampleSchema(doc, prop) : undefined)
    if (!isRequired && sampled === undefined && !file) continue
    const description = oneLine(ownString(deref(doc, prop), 'description') ?? '', 1000)
    out.push({
      name: inert(oneLine(name, 200)),
      value: file ? '' : inert(wellFormed(fieldText(sampled))),
      enabled: isRequired || !file,
      description,
      file,
    })
  }
  for (const [name, v] of entries(value).slice(0, 256)) {
    if (names.has(name)) continue
    out.push({
      name: inert(oneLine(name, 200)),
      value: inert(wellFormed(fieldText(v))),
      enabled: true,
      description: '',
      file: false,
    })
  }
  return out
}

/** The request body to send: its preferred media type and an example the schema accepts. */
export function exportBody(doc: unknown, requestBody: unknown): ExportBody | undefined {
  const body = deref(doc, requestBody)
  const content = entries(own(body, 'content')).filter(([, media]) => isObject(media))
  if (content.length === 0) return undefined
  const typed = content.map(([type, media]) => ({ type, media: media as Json, kind: kindOf(type) }))
  typed.sort((a, b) => preference.indexOf(a.kind) - preference.indexOf(b.kind))
  const { type, media, kind } = typed[0]!
  const mediaType = inert(oneLine(type === '*/*' ? 'application/json' : type, 200))
  if (kind === 'json') {
    const text = stringify(exampleOf(doc, media) ?? {}) ?? '{}'
    return { kind, mediaType, text: inertJson(wellFormed(text)) }
  }
  if (kind === 'form' || kind === 'multipart')
    return { kind, mediaType, fields: fields(doc, media) }
  if (kind === 'text') {
    const value = exampleOf(doc, media)
    const text = typeof value === 'string' ? value : ''
    return { kind, mediaType, text: inert(wellFormed(text)), language: languageOf(mediaType) }
  }
  return { kind, mediaType }
}
