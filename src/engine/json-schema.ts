import { isAdapter, type SchemaAdapter } from './adapter.js'
import type { IRNode, IRObject, IRString } from './ir.js'

/** A JSON Schema 2020-12 object, usable as an OpenAPI 3.1 schema. */
export type JsonSchema = { [keyword: string]: unknown }

/** How `toJsonSchema` writes a schema. */
export interface JsonSchemaOptions {
  /** `input`: what a client may send (defaulted fields optional); `output`: what the server returns. */
  readonly io: 'input' | 'output'
  /** Recursive schemas go here instead of the result's own `$defs` (e.g. OpenAPI components). */
  readonly definitions?: Record<string, JsonSchema>
  /** Prefix of `$ref` to a definition; default `#/$defs/` (use `#/components/schemas/` with `definitions`). */
  readonly refPrefix?: string
}

const formats: Record<string, JsonSchema> = {
  email: { format: 'email' },
  uuid: { format: 'uuid' },
  guid: { format: 'uuid' },
  url: { format: 'uri' },
  datetime: { format: 'date-time' },
  date: { format: 'date' },
  time: { format: 'time' },
  duration: { format: 'duration' },
  ipv4: { format: 'ipv4' },
  ipv6: { format: 'ipv6' },
  cidrv4: { format: 'cidr' },
  cidrv6: { format: 'cidr' },
  base64: { format: 'byte', contentEncoding: 'base64' },
  base64url: { contentEncoding: 'base64url' },
  jwt: { pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*$' },
}

const numberFormats: Record<string, string> = {
  int32: 'int32',
  float32: 'float',
  float64: 'double',
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')

function stringSchema(node: IRString): JsonSchema {
  const s: JsonSchema = { type: 'string' }
  const patterns: string[] = []
  for (const c of node.checks) {
    if (c.kind === 'min_length' || c.kind === 'length')
      s.minLength = Math.max(Number(s.minLength ?? 0), c.value)
    if (c.kind === 'max_length' || c.kind === 'length')
      s.maxLength = Math.min(Number(s.maxLength ?? Infinity), c.value)
    if (c.kind !== 'pattern' && c.kind !== 'format') continue
    const known = formats[c.format]
    if (known) {
      if (known.pattern) patterns.push(String(known.pattern))
      Object.assign(s, { ...known, pattern: undefined })
    } else if (c.kind === 'pattern') {
      const a = c.affix ?? ''
      if (c.format === 'starts_with') patterns.push(`^${escapeRegex(a)}`)
      else if (c.format === 'ends_with') patterns.push(`${escapeRegex(a)}$`)
      else if (c.format === 'includes') patterns.push(escapeRegex(a))
      else patterns.push(c.pattern.source)
    }
  }
  if (s.pattern === undefined) delete s.pattern
  if (patterns.length > 0) s.pattern = patterns[0]
  if (patterns.length > 1) s.allOf = patterns.slice(1).map((pattern) => ({ pattern }))
  return s
}

function jsonValue(v: unknown): unknown {
  return typeof v === 'bigint' ? Number(v) : v
}

function withNull(s: JsonSchema): JsonSchema {
  if (Object.keys(s).length === 1 && 'const' in s) return { enum: [s.const, null] }
  if (typeof s.type === 'string' && s.$ref === undefined && s.anyOf === undefined) {
    const out: JsonSchema = { ...s, type: [s.type, 'null'] }
    if (Array.isArray(s.enum)) out.enum = [...s.enum, null]
    if ('const' in s) {
      delete out.const
      out.enum = [s.const, null]
    }
    return out
  }
  return { anyOf: [s, { type: 'null' }] }
}

class Writer {
  constructor(
    readonly io: 'input' | 'output',
    readonly defs: Record<string, JsonSchema>,
    readonly prefix: string,
  ) {}

  write(node: IRNode): JsonSchema {
    const s = this.kind(node)
    const m = node.meta
    if (!m) return s
    const out = { ...s }
    if (m.title !== undefined) out.title = m.title
    if (m.description !== undefined) out.description = m.description
    if (m.examples !== undefined) out.examples = [...m.examples]
    if (m.deprecated) out.deprecated = true
    return out
  }

  private object(node: IRObject): JsonSchema {
    const properties: Record<string, JsonSchema> = {}
    const required: string[] = []
    for (const p of node.properties) {
      properties[p.key] = this.write(p.value)
      const present =
        p.presence === 'required' ||
        (this.io === 'output' && p.presence === 'defaulted' && !p.outputOptional)
      if (present) required.push(p.key)
    }
    const s: JsonSchema = { type: 'object', properties }
    if (required.length > 0) s.required = required
    if (node.unknownKeys === 'strict' || (node.unknownKeys === 'strip' && this.io === 'output')) {
      s.additionalProperties = false
    }
    if (node.unknownKeys === 'catchall' && node.catchall && node.catchall.kind !== 'unknown') {
      s.additionalProperties = this.write(node.catchall)
    }
    return s
  }

  private kind(node: IRNode): JsonSchema {
    const w = (n: IRNode) => this.write(n)
    switch (node.kind) {
      case 'string':
        return stringSchema(node)
      case 'number': {
        const s: JsonSchema = { type: node.integer ? 'integer' : 'number' }
        const f = node.format && numberFormats[node.format]
        if (f) s.format = f
        const keys = {
          gte: 'minimum',
          gt: 'exclusiveMinimum',
          lte: 'maximum',
          lt: 'exclusiveMaximum',
        } as const
        for (const c of node.checks) {
          if (c.kind === 'multiple_of') s.multipleOf = c.value
          else {
            const k = keys[c.kind]
            const prev = s[k] as number | undefined
            const lower = c.kind === 'gte' || c.kind === 'gt'
            s[k] =
              prev === undefined
                ? c.value
                : lower
                  ? Math.max(prev, c.value)
                  : Math.min(prev, c.value)
          }
        }
        return s
      }
      case 'bigint':
        return { type: 'integer', format: 'int64' }
      case 'boolean':
        return { type: 'boolean' }
      case 'null':
        return { type: 'null' }
      case 'date':
        return { type: 'string', format: 'date-time' }
      case 'literal':
      case 'enum': {
        const values = node.values.filter((v) => v !== undefined).map(jsonValue)
        if (values.length === 1) return { const: values[0] }
        const types = new Set(values.map((v) => (v === null ? 'null' : typeof v)))
        const only = types.size === 1 ? [...types][0] : undefined
        return only === 'string' || only === 'number' || only === 'boolean'
          ? { type: only, enum: values }
          : { enum: values }
      }
      case 'unknown':
      case 'nan':
        return {}
      case 'undefined':
      case 'never':
        return { not: {} }
      case 'array':
      case 'set': {
        const s: JsonSchema = { type: 'array', items: w(node.item) }
        if (node.kind === 'set') s.uniqueItems = true
        if (node.minItems !== undefined) s.minItems = node.minItems
        if (node.maxItems !== undefined) s.maxItems = node.maxItems
        return s
      }
      case 'tuple': {
        const s: JsonSchema = {
          type: 'array',
          prefixItems: node.items.map(w),
          minItems: node.items.length,
        }
        if (node.rest) s.items = w(node.rest)
        else s.maxItems = node.items.length
        return s
      }
      case 'object':
        return this.object(node)
      case 'record': {
        const s: JsonSchema = { type: 'object', additionalProperties: w(node.value) }
        const key = w(node.key)
        if (Object.keys(key).some((k) => k !== 'type')) s.propertyNames = key
        return s
      }
      case 'union': {
        if (node.options.every((o) => o.kind === 'literal' || o.kind === 'enum')) {
          return this.kind({
            kind: 'enum',
            safety: 'exact',
            values: node.options.flatMap((o) => ('values' in o ? o.values : [])) as never,
          })
        }
        return { [node.discriminator !== undefined ? 'oneOf' : 'anyOf']: node.options.map(w) }
      }
      case 'intersection':
        return { allOf: [w(node.left), w(node.right)] }
      case 'optional':
        return w(node.inner)
      case 'nullable':
        return withNull(w(node.inner))
      case 'readonly':
        return { ...w(node.inner), readOnly: true }
      case 'default': {
        const s =
          node.on === 'null' || node.on === 'nullish' ? withNull(w(node.inner)) : w(node.inner)
        return node.value === undefined ? s : { ...s, default: node.value }
      }
      case 'pipe':
        return w(this.io === 'input' ? node.in : node.out)
      case 'recursive':
        if (!(node.id in this.defs)) {
          this.defs[node.id] = {}
          this.defs[node.id] = w(node.node)
        }
        return { $ref: this.prefix + node.id }
      case 'ref':
        return { $ref: this.prefix + node.id }
      case 'native': {
        const shown =
          this.io === 'input'
            ? node.inner
            : (node.output ?? (node.reason === 'transform' ? undefined : node.inner))
        if (shown) return w(shown)
        if (node.reason.startsWith('unsupported')) return { type: 'string' }
        return {}
      }
    }
  }
}

/**
 * Writes a schema as JSON Schema 2020-12 in OpenAPI 3.1 style: `null` as a type or an anyOf
 * branch, recursion through `$defs`/`$ref`, `required` listing every property neither optional
 * nor (in input mode) defaulted.
 * @param options.io `input` (what a client sends) or `output` (what the server returns).
 * @example toJsonSchema(zodAdapter(User), { io: 'input' })
 */
export function toJsonSchema(
  schema: SchemaAdapter | IRNode,
  options: JsonSchemaOptions,
): JsonSchema {
  const ir = isAdapter(schema) ? schema.ir : schema
  if (!ir) return {}
  const own: Record<string, JsonSchema> = {}
  const defs = options.definitions ?? own
  const writer = new Writer(options.io, defs, options.refPrefix ?? '#/$defs/')
  const root = writer.write(ir)
  return Object.keys(own).length > 0 ? { ...root, $defs: own } : root
}
