import type { JsonSchema } from '../../engine/json-schema/json-schema-types.js'
import type { FileField } from '../../shared/file-field.js'
import type { WarningSink } from './types.js'

// A route's `files` as the parts of its multipart/form-data body: each field a binary string.
// `format: binary` beside `contentMediaType` (both valid in 3.1): Swagger UI (5.17) shows a file
// input, openapi-typescript and the client exports' importers know a file, only by the format.

/** One uploaded file as a multipart part's schema. */
function fileSchema(field: FileField): JsonSchema {
  const only = field.types?.length === 1 && !field.types[0]!.endsWith('/*')
  return {
    type: 'string',
    format: 'binary',
    contentMediaType: only ? field.types![0]! : 'application/octet-stream',
  }
}

function fieldSchema(field: FileField): JsonSchema {
  const schema: JsonSchema = field.many
    ? {
        type: 'array',
        items: fileSchema(field),
        ...(field.min > 0 ? { minItems: field.min } : {}),
        maxItems: field.max,
      }
    : fileSchema(field)
  if (field.description !== undefined) schema.description = field.description
  return schema
}

const isObjectSchema = (s: JsonSchema) =>
  s.type === 'object' || (s.properties !== undefined && s.type === undefined)

/** A multipart body with files: its schema and the `encoding` of the fields with allowed types. */
export interface FilesBody {
  readonly schema: JsonSchema
  readonly encoding: Record<string, { contentType: string }>
  /** A file field is required. */
  readonly required: boolean
}

/**
 * The body of a route with `files`: the text fields of `body` (already written, its `$ref`
 * resolved) and one binary part per file field; only declared fields are files. A body that is no
 * plain object schema is kept beside the files in an `allOf`.
 */
export function filesBody(
  body: JsonSchema | undefined,
  files: Readonly<Record<string, FileField>>,
  where: string,
  warn: WarningSink,
): FilesBody {
  const properties: Record<string, JsonSchema> = {}
  const required: string[] = []
  const encoding: Record<string, { contentType: string }> = {}
  for (const [name, field] of Object.entries(files)) {
    properties[name] = fieldSchema(field)
    if (!field.optional) required.push(name)
    if (field.types !== undefined) encoding[name] = { contentType: field.types.join(', ') }
  }
  const parts: JsonSchema = { type: 'object', properties }
  if (required.length > 0) parts.required = required
  let schema = parts
  if (body !== undefined && isObjectSchema(body)) {
    const text = { ...(body.properties as Record<string, JsonSchema> | undefined) }
    for (const name of Object.keys(files)) {
      if (!Object.hasOwn(text, name)) continue
      warn(
        `shapeguard: ${where} body declares ${JSON.stringify(name)}, which is a file field; documented as the file`,
      )
      delete text[name]
    }
    const textRequired = ((body.required as string[] | undefined) ?? []).filter(
      (name) => !Object.hasOwn(files, name),
    )
    const all = [...textRequired, ...required]
    schema = { ...body, type: 'object', properties: { ...text, ...properties } }
    if (all.length > 0) schema.required = all
    else delete schema.required
  } else if (body !== undefined && Object.keys(body).length > 0) {
    schema = { allOf: [body, parts] }
  }
  return { schema, encoding, required: required.length > 0 }
}
