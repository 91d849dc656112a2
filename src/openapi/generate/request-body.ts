import type { JsonSchema } from '../../engine/json-schema/json-schema-types.js'
import { filesBody } from './file-fields.js'
import type { SchemaWriter } from './schemas.js'
import type { OpenAPIRoute, WarningSink } from './types.js'

/** Field names documented as uploaded files (`format: binary`) in a multipart body. */
export const uploadFieldNames: ReadonlySet<string> = new Set([
  'file',
  'files',
  'image',
  'images',
  'avatar',
  'photo',
  'photos',
  'picture',
  'video',
  'audio',
  'attachment',
  'attachments',
  'document',
  'documents',
  'thumbnail',
  'upload',
  'cover',
  'logo',
  'banner',
  'icon',
])

const binary = (schema: JsonSchema): JsonSchema => {
  const s: JsonSchema = {
    type: 'string',
    format: 'binary',
    contentMediaType: 'application/octet-stream',
  }
  if (typeof schema.description === 'string') s.description = schema.description
  return s
}

const isArray = (s: JsonSchema) =>
  s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array'))

/** A multipart body's schema with its upload fields (by name) as binary parts. */
function withUploads(schema: JsonSchema): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema> | undefined
  if (properties === undefined) return schema
  const out: Record<string, JsonSchema> = {}
  for (const [name, p] of Object.entries(properties)) {
    if (!uploadFieldNames.has(name)) out[name] = p
    else out[name] = isArray(p) ? { type: 'array', items: binary(p) } : binary(p)
  }
  return { ...schema, properties: out }
}

/** A named schema's definition (a multipart body's upload fields are rewritten in place of the `$ref`). */
function resolved(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const ref = schema.$ref
  const prefix = '#/components/schemas/'
  if (typeof ref !== 'string' || !ref.startsWith(prefix)) return schema
  return components[ref.slice(prefix.length)] ?? schema
}

const mediaTypes = {
  json: 'application/json',
  multipart: 'multipart/form-data',
  form: 'application/x-www-form-urlencoded',
} as const

/**
 * The request body of an operation: its schema in input mode under the media type of `bodyType`.
 * A JSON body documents a converted value as its type or the strings the library reads as it;
 * form fields are strings, documented as the type they are converted to. A route with `files`
 * reads multipart/form-data whatever `bodyType` says: its file fields are the binary parts.
 */
export function requestBodyOf(
  schemas: SchemaWriter,
  where: string,
  route: Pick<OpenAPIRoute, 'body' | 'bodyType' | 'files'>,
  warn: WarningSink,
): Record<string, unknown> {
  const { body, files } = route
  if (files !== undefined) {
    if (route.bodyType === 'json' || route.bodyType === 'form')
      warn(
        `shapeguard: ${where} has files, which are read as multipart/form-data; its bodyType '${route.bodyType}' is not documented`,
      )
    const written =
      body === undefined
        ? undefined
        : resolved(schemas.write(body, 'input', `${where} body`), schemas.components)
    const { schema, encoding, required } = filesBody(written, files, where, warn)
    const media: Record<string, unknown> = { schema }
    if (Object.keys(encoding).length > 0) media.encoding = encoding
    return {
      required: required || (written !== undefined && !acceptsAbsent(written)),
      content: { [mediaTypes.multipart]: media },
    }
  }
  const type = route.bodyType ?? 'json'
  let written = schemas.write(body, 'input', `${where} body`, type === 'json' ? 'json' : 'target')
  if (type === 'multipart') written = withUploads(resolved(written, schemas.components))
  const required = !acceptsAbsent(written)
  return { required, content: { [mediaTypes[type]]: { schema: written } } }
}

// An unconstrained body (no schema keyword that rejects an absent body) is optional.
const acceptsAbsent = (s: JsonSchema) =>
  Object.keys(s).every((k) => ['description', 'title', '$comment', 'examples'].includes(k))
