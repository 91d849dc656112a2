import type { JsonSchema } from '../../engine/json-schema/json-schema-types.js'
import { envelopeNames } from '../../shared/envelope-shape.js'
import { errorCodes, optionError } from '../../shared/error-codes.js'
import { isObject } from '../../shared/is-object.js'
import { problemMembers, problemType } from '../../shared/problem-details.js'
import { type ErrorStyle, formats, sharedCodes } from './responses.js'
import type { SchemaWriter } from './schemas.js'

// A route's `errors`: registry codes and AppError.define() factories, read structurally (openapi/
// may not import runtime/core), each documented under its status with its code and details.

/** One declared error: its code, status, and the schema of its details (undefined: `null`). */
interface Declared {
  readonly code: string
  readonly status: number
  readonly details: unknown
  /** A code of the registry, which shapeguard's shared responses may describe already. */
  readonly registry: boolean
  /** The default message, for the response's description. */
  readonly message: string | undefined
}

const isFactory = (item: unknown): item is Declared & { statusCode: number } =>
  typeof item === 'function' &&
  typeof (item as { code?: unknown }).code === 'string' &&
  Number.isInteger((item as { statusCode?: unknown }).statusCode) &&
  'details' in item

/**
 * A route's `errors`, checked: each a code of the registry or a factory of `AppError.define()`
 * with a 4xx or 5xx status. Throws a TypeError naming the route.
 * @param where the route as errors name it, e.g. `generateOpenAPI(): GET /x`
 */
export function declaredErrors(errors: unknown, where: string): Declared[] {
  if (errors === undefined) return []
  const at = `shapeguard: ${where}.errors`
  if (!Array.isArray(errors))
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `${at}: must be an array of error codes and AppError.define() factories`,
    )
  return errors.map((item: unknown): Declared => {
    if (typeof item === 'string') {
      const entry = (errorCodes as Record<string, { status: number; message: string } | undefined>)[
        item
      ]
      if (entry === undefined || !Object.hasOwn(errorCodes, item))
        throw optionError(
          'SG_ERR_UNKNOWN_NAME',
          `${at}: ${JSON.stringify(item)} is not a code shapeguard sends; declare a code of your own with AppError.define(${JSON.stringify(item)}, status, message?, { details? }) and list the factory`,
        )
      return {
        code: item,
        status: entry.status,
        details: undefined,
        registry: true,
        message: entry.message,
      }
    }
    if (isFactory(item) && item.statusCode >= 400 && item.statusCode <= 599)
      return {
        code: item.code,
        status: item.statusCode,
        details: item.details,
        registry: false,
        message: typeof item.message === 'string' ? item.message : undefined,
      }
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `${at}: each item must be a code of the registry ('NOT_FOUND') or a factory of AppError.define() with a 4xx or 5xx status`,
    )
  })
}

/** The error variants of one document, each written once under components when routes share it. */
export class ErrorVariants {
  /** Variant schemas by key (code and schema), with their code and their uses. */
  private readonly variants = new Map<
    string,
    { readonly code: string; readonly schema: JsonSchema; readonly uses: JsonSchema[] }
  >()

  constructor(
    private readonly style: ErrorStyle,
    private readonly schemas: SchemaWriter,
  ) {}

  /**
   * The responses of a route's declared errors, one per status, over `responses` (the
   * operation's, whose `$ref`s to `shared` responses are combined with what is declared there).
   */
  document(
    declared: readonly Declared[],
    where: string,
    responses: Record<string, unknown>,
    shared: Record<string, unknown>,
  ): void {
    const byStatus = new Map<number, Declared[]>()
    for (const d of declared) {
      const list = byStatus.get(d.status) ?? []
      if (!list.some((e) => e.code === d.code)) list.push(d)
      byStatus.set(d.status, list)
    }
    const media = formats[this.style.format].media
    for (const [status, all] of byStatus) {
      const present = responses[String(status)] as { $ref?: string } | undefined
      const base = present?.$ref?.split('/').pop()
      const described = base === undefined ? [] : sharedCodes(base, status)
      const own = all.filter((d) => !(d.registry && described.includes(d.code)))
      if (own.length === 0) continue
      const schema = this.schemaOf(own, where)
      const listed = own.map((d) => `\`${d.code}\`${d.message ? ` (${d.message})` : ''}`)
      const description = `${base === undefined ? 'Declared by the route' : 'Also declared by the route'}: ${listed.join(', ')}.`
      if (base === undefined) {
        responses[String(status)] = { description, content: { [media]: { schema } } }
        continue
      }
      const sharedResponse = shared[base] as {
        description: string
        content: Record<string, { schema: JsonSchema }>
      }
      const alternatives = 'oneOf' in schema ? (schema.oneOf as JsonSchema[]) : [schema]
      responses[String(status)] = {
        ...sharedResponse,
        description: `${sharedResponse.description} ${description}`,
        content: {
          [media]: { schema: { anyOf: [sharedResponse.content[media]!.schema, ...alternatives] } },
        },
      }
    }
  }

  /** Writes the variants that two operations or more use under `components/schemas`. */
  finish(components: Record<string, JsonSchema>): void {
    for (const { code, schema, uses } of this.variants.values()) {
      if (uses.length < 2) {
        for (const use of uses) Object.assign(use, schema)
        continue
      }
      const name = nameOf(code, components)
      components[name] = schema
      for (const use of uses) use.$ref = `#/components/schemas/${name}`
    }
  }

  // The codes of one status: one schema with their codes as an enum when their details agree,
  // else one variant per code (`oneOf`), each with its code as a `const`.
  private schemaOf(own: readonly Declared[], where: string): JsonSchema {
    // Details are sent as the raiser passed them, never parsed: the schema's input. A factory
    // without a schema sends whatever it is given.
    const details = own.map((d) =>
      d.details === undefined
        ? ({} as JsonSchema)
        : this.schemas.write(d.details, 'input', `${where} errors ${d.code} details`),
    )
    const text = JSON.stringify(details[0])
    if (details.every((d) => JSON.stringify(d) === text)) {
      if (own.length > 1) return this.variant(own, details[0]!)
      return this.use(own[0]!.code, this.variant(own, details[0]!))
    }
    return { oneOf: own.map((d, i) => this.use(d.code, this.variant([d], details[i]!))) }
  }

  // A placeholder filled (inline or as a $ref) by finish(), once every route is written.
  private use(code: string, schema: JsonSchema): JsonSchema {
    const key = `${code}\0${JSON.stringify(schema)}`
    let found = this.variants.get(key)
    if (found === undefined) {
      found = { code, schema, uses: [] }
      this.variants.set(key, found)
    }
    const placeholder: JsonSchema = {}
    found.uses.push(placeholder)
    return placeholder
  }

  // One error answer with these codes and this details schema, in the app's error format.
  private variant(own: readonly Declared[], details: JsonSchema): JsonSchema {
    const codes = own.map((d) => d.code)
    const one = <T>(values: readonly T[]): JsonSchema =>
      values.length === 1 ? { const: values[0] } : { enum: [...new Set(values)] }
    const code: JsonSchema = { type: 'string', ...one(codes) }
    if (this.style.format === 'problem+json') {
      const base = this.style.problemTypeBase
      const properties: Record<string, JsonSchema> = {
        type: { type: 'string', ...one(codes.map((c) => problemType(c, base))) },
        code,
      }
      const required = ['type', 'code']
      const members = asMembers(details, this.schemas.components)
      if (members !== undefined) {
        Object.assign(properties, members.properties)
        required.push(...members.required)
      } else if (Object.keys(details).length > 0) {
        // Not an object of known members (a record, a union, a string): the runtime spreads a
        // plain object into members and sends anything else whole as `details`.
        properties.details = details
      }
      return {
        allOf: [
          { $ref: `#/components/schemas/${formats['problem+json'].error}` },
          { type: 'object', properties, required },
        ],
      }
    }
    const fields = envelopeNames(this.style.shape)
    const properties: Record<string, JsonSchema> = {}
    for (const name of fields.success) properties[name] = { type: 'boolean', const: false }
    for (const name of fields.message) properties[name] = { type: 'string' }
    properties.error = {
      type: 'object',
      properties: { code, message: { type: 'string' }, details },
      required: ['code', 'message', 'details'],
    }
    return { type: 'object', properties, required: Object.keys(properties) }
  }
}

// OUT_OF_STOCK → OutOfStockError, numbered when taken (another details schema, a user's name).
function nameOf(code: string, components: Record<string, JsonSchema>): string {
  const words = code
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
  const camel = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')
  const wanted = `${/^[A-Za-z]/.test(camel) ? '' : 'E'}${camel}Error`
  const taken = (name: string) =>
    Object.hasOwn(components, name) ||
    Object.values(formats).some((f) => Object.values(f).includes(name as never)) ||
    name === 'ValidationIssue'
  let name = wanted
  for (let n = 2; taken(name); n++) name = `${wanted}${n}`
  return name
}

/**
 * A details schema as problem+json sends it: an object none of whose properties is a member of
 * the problem is spread into members (the runtime's problemDetails()); undefined otherwise.
 */
function asMembers(
  details: JsonSchema,
  components: Record<string, JsonSchema>,
): { properties: Record<string, JsonSchema>; required: string[] } | undefined {
  const ref = (details as { $ref?: unknown }).$ref
  const schema =
    typeof ref === 'string' ? components[ref.replace('#/components/schemas/', '')] : details
  if (!isObject(schema) || schema.type !== 'object' || !isObject(schema.properties))
    return undefined
  const properties = schema.properties as Record<string, JsonSchema>
  if (Object.keys(properties).some((key) => problemMembers.has(key))) return undefined
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : []
  return { properties, required }
}
