import type { JsonSchema } from '../../engine/json-schema/json-schema-types.js'
import type { SchemaWriter } from './schemas.js'
import type { WarningSink } from './types.js'

/** Where a parameter is: the request part it comes from. */
type Location = 'path' | 'query' | 'header'

const parts: Readonly<Record<Location, 'params' | 'query' | 'headers'>> = {
  path: 'params',
  query: 'query',
  header: 'headers',
}

// OpenAPI ignores these as header parameters: the body's media type and security describe them.
const ignoredHeaders = new Set(['accept', 'content-type', 'authorization'])

/** The object a schema is, following a `$ref` into the components (a named schema). */
function objectOf(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const ref = schema.$ref
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    const target = components[ref.slice('#/components/schemas/'.length)]
    if (target !== undefined) return objectOf(target, components)
  }
  return schema
}

const isArraySchema = (s: JsonSchema) =>
  s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array'))

/**
 * The parameters of one request part, one per declared property of its (object) schema, in input
 * mode with coerced values as their target type (what the string means). Path parameters are all
 * required; a path parameter the schema does not declare is documented as a string.
 */
export function parametersOf(
  schemas: SchemaWriter,
  where: string,
  location: Location,
  schema: unknown,
  pathParams: readonly string[],
  warn: WarningSink,
): unknown[] {
  const out: unknown[] = []
  const declared = new Set<string>()
  if (schema !== undefined) {
    const part = parts[location]
    const root = objectOf(schemas.write(schema, 'input', `${where} ${part}`), schemas.components)
    const properties = root.properties as Record<string, JsonSchema> | undefined
    if (root.type !== 'object' || properties === undefined) {
      warn(
        `shapeguard: ${where} ${part} is not an object schema; its parameters are not documented`,
      )
    } else {
      const required = new Set((root.required as string[] | undefined) ?? [])
      for (const [name, property] of Object.entries(properties)) {
        if (location === 'path' && !pathParams.includes(name)) {
          warn(
            `shapeguard: ${where} params declares ${JSON.stringify(name)}, which is not in the path`,
          )
          continue
        }
        if (location === 'header' && ignoredHeaders.has(name.toLowerCase())) continue
        declared.add(name)
        out.push(parameter(name, location, property, location === 'path' || required.has(name)))
      }
    }
  }
  if (location === 'path') {
    for (const name of pathParams) {
      if (!declared.has(name)) out.push(parameter(name, 'path', { type: 'string' }, true))
    }
  }
  return out
}

function parameter(
  name: string,
  location: Location,
  schema: JsonSchema,
  required: boolean,
): Record<string, unknown> {
  const p: Record<string, unknown> = { name, in: location, required, schema }
  if (typeof schema.description === 'string') p.description = schema.description
  if (schema.deprecated === true) p.deprecated = true
  // Repeated keys (`?tag=a&tag=b`) fill an array; Express's parser reads them so.
  if (location === 'query' && isArraySchema(schema)) {
    p.style = 'form'
    p.explode = true
  }
  return p
}
