import type { JsonSchema } from './json-schema-types.js'

/** Whether an object schema requires `key` and fixes its value (`const` or `enum`). */
function pinsKey(schema: JsonSchema, key: string): boolean {
  const value = (schema.properties as Record<string, JsonSchema> | undefined)?.[key]
  const required = schema.required as readonly string[] | undefined
  return (
    value !== undefined &&
    (value.const !== undefined || value.enum !== undefined) &&
    required?.includes(key) === true
  )
}

/**
 * A union's written options combined: `oneOf` for a discriminated union while every option pins
 * the discriminator, else `anyOf`. An option written wider than its branch (`{}` for a branch
 * only the library can check) would let one value match two options, which `oneOf` rejects; and
 * a plain union takes the first option that matches, so its options may overlap.
 */
export function unionOf(options: JsonSchema[], discriminator: string | undefined): JsonSchema {
  const exclusive = discriminator !== undefined && options.every((o) => pinsKey(o, discriminator))
  return { [exclusive ? 'oneOf' : 'anyOf']: options }
}
