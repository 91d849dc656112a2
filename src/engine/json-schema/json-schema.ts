import { isAdapter, type SchemaAdapter } from '../adapter.js'
import type { IRNode, IRObject, IRRecursive, NativeReason } from '../ir/types.js'
import { each, type Visitor, visit } from '../ir/visit.js'
import { allClosed, closed } from './json-schema-closed.js'
import { type CoercingLeaf, coercedInput, readAs } from './json-schema-coerced.js'
import { canonical, defineNamed, freeName, namesOf, preferredName } from './json-schema-defs.js'
import { absentAllowed, takesAnything, takesMissing } from './json-schema-input.js'
import { enumSchema, numberSchema, stringSchema, withNull } from './json-schema-leaves.js'
import type { JsonSchema, JsonSchemaOptions, Widening } from './json-schema-types.js'
import { unionOf } from './json-schema-union.js'

export type { JsonSchema, JsonSchemaOptions, Widening } from './json-schema-types.js'

class Writer {
  /** Definition names of the recursive nodes being written, by their IR id (for `ref` nodes). */
  private readonly scope = new Map<string, string>()
  /** Definitions being written (still placeholders), never taken as equal to another. */
  private readonly pending = new Set<string>()

  constructor(
    readonly io: 'input' | 'output',
    readonly defs: Record<string, JsonSchema>,
    readonly prefix: string,
    readonly options: JsonSchemaOptions,
  ) {}

  /** Reports a node documented wider than it validates (see {@link JsonSchemaOptions.onWiden}). */
  widen(reason: Widening['reason'], detail?: string): void {
    this.options.onWiden?.(detail === undefined ? { reason } : { reason, detail })
  }

  /**
   * `open`: the node is (through wrappers) a member of an intersection's `allOf`, where an object
   * must not close itself with `additionalProperties: false`: zod accepts `{ a, b }` for
   * `intersection(object({ a }), object({ b }))`, and a closed side would reject the other's keys.
   */
  write(node: IRNode, open = false): JsonSchema {
    // A named schema (not recursive: its definition is named in `recursive`) is written once into
    // the definitions and referenced; open, inside an intersection, it is written in place.
    const id = node.meta?.id
    if (id !== undefined && !open && node.kind !== 'recursive' && node.kind !== 'ref') {
      const write = () => this.plain(node, false)
      return defineNamed(this.defs, node, this.io, this.prefix, id, write, (given, name) =>
        this.options.onRename?.(given, name),
      )
    }
    return this.plain(node, open)
  }

  private plain(node: IRNode, open: boolean): JsonSchema {
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

  object(node: IRObject, open: boolean): JsonSchema {
    const properties: Record<string, JsonSchema> = {}
    const required: string[] = []
    for (const p of node.properties) {
      properties[p.key] = this.write(p.value)
      const present =
        (p.presence === 'required' && !(this.io === 'input' && absentAllowed(p.value))) ||
        (this.io === 'output' && p.presence === 'defaulted' && !p.outputOptional)
      if (present) required.push(p.key)
    }
    const s: JsonSchema = { type: 'object', properties }
    if (required.length > 0) s.required = required
    if (!open && closed(node, this.io)) s.additionalProperties = false
    if (node.unknownKeys === 'catchall' && node.catchall && node.catchall.kind !== 'unknown') {
      s.additionalProperties = this.write(node.catchall)
      for (const k of node.ignoredKeys ?? []) if (!(k in properties)) properties[k] = {}
    }
    return s
  }

  recursive(node: IRRecursive, open: boolean): JsonSchema {
    const known = namesOf(this.defs)
    const given = known.get(node)
    const name =
      given !== undefined && given in this.defs
        ? given
        : (preferredName(this.defs, node.meta?.id, this.io) ?? freeName(this.defs))
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

  /** A reference to the recursive node `id` being written. */
  ref(id: string): JsonSchema {
    return { $ref: this.prefix + (this.scope.get(id) ?? id) }
  }

  private kind(node: IRNode, open: boolean): JsonSchema {
    return visit(node, writers, { w: this, open })
  }
}

/** Where a node is written: `open` as for {@link Writer.write}. */
interface Cursor {
  readonly w: Writer
  readonly open: boolean
}

const child = (n: IRNode, c: Cursor) => c.w.write(n)
/** An inner node standing where the node stands (wrappers, union options): open if it is. */
const same = (n: IRNode, c: Cursor) => c.w.write(n, c.open)

/**
 * A leaf that converts its input, in input mode with `coercion: 'json'` (a JSON body): its own
 * schema, with the string forms the library reads as its type as an alternative.
 */
const coerced =
  <N extends CoercingLeaf>(write: (n: N, io: Cursor['w']['io']) => JsonSchema) =>
  (n: N, c: Cursor): JsonSchema => {
    const s = write(n, c.w.io)
    if (c.w.io !== 'input' || n.coerce === false || c.w.options.coercion !== 'json') return s
    return coercedInput(n, s)
  }

const widest = (c: Cursor, reason: NativeReason, detail?: string): JsonSchema => {
  c.w.widen(reason, detail)
  return {}
}

const writers: Visitor<JsonSchema, Cursor> = {
  string: coerced(stringSchema),
  number: coerced((n) => numberSchema(n)),
  bigint: coerced(() => ({ type: 'integer', format: 'int64' })),
  boolean: coerced(() => ({ type: 'boolean' })),
  null: () => ({ type: 'null' }),
  date: coerced(() => ({ type: 'string', format: 'date-time' })),
  ...each(['literal', 'enum'], (n) => enumSchema(n.values)),
  ...each(['unknown', 'nan'], () => ({})),
  ...each(['undefined', 'never'], () => ({ not: {} })),
  ...each(['array', 'set'], (n, c) => {
    const s: JsonSchema = { type: 'array', items: child(n.item, c) }
    if (n.kind === 'set') s.uniqueItems = true
    if (n.minItems !== undefined) s.minItems = n.minItems
    if (n.maxItems !== undefined) s.maxItems = n.maxItems
    return s
  }),
  tuple: (n, c) => {
    // In input mode trailing items that take a missing value (optional, defaulted, coerced) may
    // be left out, and extra items a library drops may be sent.
    const input = c.w.io === 'input'
    let min = n.items.length
    while (input && min > 0 && takesMissing(n.items[min - 1]!)) min--
    const s: JsonSchema = {
      type: 'array',
      prefixItems: n.items.map((i) => child(i, c)),
      minItems: min,
    }
    if (n.rest) s.items = child(n.rest, c)
    else if (!(input && n.extraItems === 'strip')) s.maxItems = n.items.length
    return s
  },
  object: (n, c) => c.w.object(n, c.open),
  record: (n, c) => {
    const s: JsonSchema = { type: 'object', additionalProperties: child(n.value, c) }
    // Keys the library skips (valibot: constructor, prototype) are taken with any value.
    if (n.ignoredKeys?.length) s.properties = Object.fromEntries(n.ignoredKeys.map((k) => [k, {}]))
    const key = child(n.key, c)
    if (Object.keys(key).some((k) => k !== 'type')) s.propertyNames = key
    return s
  },
  union: (n, c) => {
    if (n.options.every((o) => o.kind === 'literal' || o.kind === 'enum'))
      return enumSchema(n.options.flatMap((o) => ('values' in o ? o.values : [])))
    const options = n.options.map((o) => same(o, c))
    return unionOf(options, n.discriminator)
  },
  intersection: (n, c) => {
    // Members are written open (no `additionalProperties: false`); when every member is a
    // closed object, `unevaluatedProperties` closes the whole: a key is then admitted iff some
    // member declares it, which is zod's rule (a key is rejected only when both sides reject
    // it). Open itself (nested in another intersection), it leaves that to the outermost.
    const s: JsonSchema = { allOf: [c.w.write(n.left, true), c.w.write(n.right, true)] }
    if (!c.open && allClosed(n, c.w.io)) s.unevaluatedProperties = false
    return s
  },
  optional: (n, c) => same(n.inner, c),
  nullable: (n, c) => withNull(same(n.inner, c)),
  readonly: (n, c) => ({ ...same(n.inner, c), readOnly: true }),
  default: (n, c) => {
    const s = n.on === 'null' || n.on === 'nullish' ? withNull(same(n.inner, c)) : same(n.inner, c)
    return n.value === undefined ? s : { ...s, default: n.value }
  },
  pipe: (n, c) => {
    if (c.w.io === 'output') return same(n.out, c)
    // A string the pipe converts (to a number, a date, …): the forms that conversion reads.
    const s = same(n.in, c)
    return n.in.kind === 'string' ? readAs(s, n.out) : s
  },
  recursive: (n, c) => c.w.recursive(n, c.open),
  ref: (n, c) => c.w.ref(n.id),
  native: (n, c) => {
    if (c.w.io === 'input' && takesAnything.has(n.reason)) return {}
    const shown =
      c.w.io === 'input' ? n.inner : (n.output ?? (n.reason === 'transform' ? undefined : n.inner))
    if (shown) return same(shown, c)
    // What only the library knows is documented unconstrained: wider than it validates, never
    // narrower (a wrong type would reject values the route accepts).
    return widest(c, n.reason, n.detail)
  },
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
  const writer = new Writer(options.io, defs, options.refPrefix ?? '#/$defs/', options)
  const root = writer.write(ir)
  return Object.keys(own).length > 0 ? { ...root, $defs: own } : root
}

/** This module's IR tables, for the test that each has a handler for every kind. */
export const tables = { writers }
