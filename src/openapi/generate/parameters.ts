import type { JsonSchema } from '../../engine/json-schema/json-schema-types.js'
import type { SchemaWriter } from './schemas.js'
import type { WarningSink } from './types.js'

/** A request part whose schema's properties are parameters. */
export type ParameterPart = 'params' | 'query' | 'headers' | 'cookies' | 'signedCookies'

/** Where a part's parameters are. */
type Location = 'path' | 'query' | 'header' | 'cookie'

const locations: Readonly<Record<ParameterPart, Location>> = {
  params: 'path',
  query: 'query',
  headers: 'header',
  cookies: 'cookie',
  signedCookies: 'cookie',
}

// A signed cookie on the wire is `s:<value>.<signature>` (cookie-parser's signing: HMAC-SHA256,
// base64 without padding), so its parameter's schema is that string; the schema validates the
// value inside, which only the server that holds the secret can sign.
const signedNote = 'Signed: sent as `s:<value>.<signature>`, as cookie-parser signs it.'
const signedSchema: JsonSchema = {
  type: 'string',
  pattern: '^s:[\\s\\S]*\\.[A-Za-z0-9+/]{43}$',
}

function signed(p: Record<string, unknown>): Record<string, unknown> {
  const own = typeof p.description === 'string' ? p.description.trim() : ''
  const description = own === '' ? signedNote : `${own.replace(/[^.!?]$/, '$&.')} ${signedNote}`
  return { ...p, schema: { ...signedSchema }, description }
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
 * required; a path parameter the schema does not declare is documented as a string. Cookies and
 * signed cookies are `in: cookie`, a signed one saying so in its description.
 */
export function parametersOf(
  schemas: SchemaWriter,
  where: string,
  part: ParameterPart,
  schema: unknown,
  pathParams: readonly string[],
  warn: WarningSink,
): unknown[] {
  const out: unknown[] = []
  const declared = new Set<string>()
  const location = locations[part]
  if (schema !== undefined) {
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
        const p = parameter(name, location, property, location === 'path' || required.has(name))
        out.push(part === 'signedCookies' ? signed(p) : p)
      }
    }
  }
  if (part === 'params') {
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
