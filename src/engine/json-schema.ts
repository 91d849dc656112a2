import { isAdapter, type SchemaAdapter } from './adapter.js'
import type { IRNode, IRObject, IRRecursive } from './ir/types.js'
import { canonical, freeName, namesOf } from './json-schema-defs.js'
import { jsonValue, numberFormats, stringSchema, withNull } from './json-schema-leaves.js'
import type { JsonSchema, JsonSchemaOptions } from './json-schema-types.js'

export type { JsonSchema, JsonSchemaOptions } from './json-schema-types.js'

class Writer {
  /** Definition names of the recursive nodes being written, by their IR id (for `ref` nodes). */
  private readonly scope = new Map<string, string>()
  /** Definitions being written (still placeholders), never taken as equal to another. */
  private readonly pending = new Set<string>()

  constructor(
    readonly io: 'input' | 'output',
    readonly defs: Record<string, JsonSchema>,
    readonly prefix: string,
  ) {}

  /**
   * `open`: the node is (through wrappers) a member of an intersection's `allOf`, where an object
   * must not close itself with `additionalProperties: false`: zod accepts `{ a, b }` for
   * `intersection(object({ a }), object({ b }))`, and a closed side would reject the other's keys.
   */
  write(node: IRNode, open = false): JsonSchema {
    const s = this.kind(node, open)
    const m = node.meta
    if (!m) return s
    const out = { ...s }
    if (m.title !== undefined) out.title = m.title
    if (m.description !== undefined) out.description = m.description
    if (m.examples !== undefined) out.examples = [...m.examples]
    if (m.deprecated) out.deprecated = true
    return out
  }

  /** Whether an object closes itself to unknown keys in this mode (strict, or strip on output). */
  private closed(node: IRObject): boolean {
    return node.unknownKeys === 'strict' || (node.unknownKeys === 'strip' && this.io === 'output')
  }

  /**
   * Whether every object an intersection member ends in is closed, so the intersection as a whole
   * admits exactly the keys some member declares (zod rejects a key only when every side does).
   */
  private allClosed(node: IRNode): boolean {
    switch (node.kind) {
      case 'object':
        return this.closed(node)
      case 'intersection':
        return this.allClosed(node.left) && this.allClosed(node.right)
      case 'readonly':
        return this.allClosed(node.inner)
      case 'recursive':
        return this.allClosed(node.node)
      case 'pipe':
        return this.allClosed(this.io === 'input' ? node.in : node.out)
      default:
        return false
    }
  }

  private object(node: IRObject, open: boolean): JsonSchema {
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
    if (!open && this.closed(node)) s.additionalProperties = false
    if (node.unknownKeys === 'catchall' && node.catchall && node.catchall.kind !== 'unknown') {
      s.additionalProperties = this.write(node.catchall)
    }
    return s
  }

  private recursive(node: IRRecursive, open: boolean): JsonSchema {
    const known = namesOf(this.defs)
    const given = known.get(node)
    const name = given !== undefined && given in this.defs ? given : freeName(this.defs)
    const outer = this.scope.get(node.id)
    this.scope.set(node.id, name)
    try {
      if (name !== given) this.define(node, name)
      const final = known.get(node) ?? name
      this.scope.set(node.id, final)
      // Open (inside an intersection), the body is written inline with its object left open;
      // its inner references still point at the closed definition.
      return open ? this.write(node.node, true) : { $ref: this.prefix + final }
    } finally {
      if (outer === undefined) this.scope.delete(node.id)
      else this.scope.set(node.id, outer)
    }
  }

  /**
   * Writes a recursive node's definition under `name`, unless the map already holds the same
   * definition under another name (the same library schema translated again as part of another
   * schema): then that one is reused and `name` given back.
   */
  private define(node: IRRecursive, name: string): void {
    const known = namesOf(this.defs)
    known.set(node, name)
    this.defs[name] = {}
    this.pending.add(name)
    let def: JsonSchema
    try {
      def = this.write(node.node)
    } finally {
      this.pending.delete(name)
    }
    const text = canonical(def, this.prefix + name)
    for (const [other, existing] of Object.entries(this.defs)) {
      if (
        other !== name &&
        !this.pending.has(other) &&
        canonical(existing, this.prefix + other) === text
      ) {
        delete this.defs[name]
        known.set(node, other)
        return
      }
    }
    this.defs[name] = def
  }

  private kind(node: IRNode, open: boolean): JsonSchema {
    const w = (n: IRNode) => this.write(n)
    /** An inner node standing where `node` stands (wrappers, union options): open if it is. */
    const same = (n: IRNode) => this.write(n, open)
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
        return this.object(node, open)
      case 'record': {
        const s: JsonSchema = { type: 'object', additionalProperties: w(node.value) }
        const key = w(node.key)
        if (Object.keys(key).some((k) => k !== 'type')) s.propertyNames = key
        return s
      }
      case 'union': {
        if (node.options.every((o) => o.kind === 'literal' || o.kind === 'enum')) {
          return this.kind(
            {
              kind: 'enum',
              safety: 'exact',
              values: node.options.flatMap((o) => ('values' in o ? o.values : [])) as never,
            },
            open,
          )
        }
        return { [node.discriminator !== undefined ? 'oneOf' : 'anyOf']: node.options.map(same) }
      }
      case 'intersection': {
        // Members are written open (no `additionalProperties: false`); when every member is a
        // closed object, `unevaluatedProperties` closes the whole: a key is then admitted iff some
        // member declares it, which is zod's rule (a key is rejected only when both sides reject
        // it). Open itself (nested in another intersection), it leaves that to the outermost.
        const s: JsonSchema = { allOf: [this.write(node.left, true), this.write(node.right, true)] }
        if (!open && this.allClosed(node)) s.unevaluatedProperties = false
        return s
      }
      case 'optional':
        return same(node.inner)
      case 'nullable':
        return withNull(same(node.inner))
      case 'readonly':
        return { ...same(node.inner), readOnly: true }
      case 'default': {
        const s =
          node.on === 'null' || node.on === 'nullish'
            ? withNull(same(node.inner))
            : same(node.inner)
        return node.value === undefined ? s : { ...s, default: node.value }
      }
      case 'pipe':
        return same(this.io === 'input' ? node.in : node.out)
      case 'recursive':
        return this.recursive(node, open)
      case 'ref':
        return { $ref: this.prefix + (this.scope.get(node.id) ?? node.id) }
      case 'native': {
        const shown =
          this.io === 'input'
            ? node.inner
            : (node.output ?? (node.reason === 'transform' ? undefined : node.inner))
        if (shown) return same(shown)
        if (node.reason === 'unsupported') return { type: 'string' }
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
