import { isIdentity, leafKinds } from '../ir/safety.js'
import type { IRNode, IRNumber, IRString } from '../ir/types.js'
import { each, type NodeOf, type Visitor, visit } from '../ir/visit.js'
import { lengthBounds, numberKeywords } from '../json-schema/json-schema-leaves.js'
import { escapeRegex } from '../regex/escape-regex.js'
import { compileLeaf, type LeafRun } from './leaf.js'

/** Registers run-time functions the custom ajv keywords call; returns their id. */
export interface KeywordRegistry {
  leaf(run: LeafRun): number
  regex(re: RegExp): number
}

type Schema = Record<string, unknown> | boolean

function isJsonPrimitive(v: unknown): boolean {
  return (
    typeof v === 'string' ||
    typeof v === 'boolean' ||
    v === null ||
    (typeof v === 'number' && Number.isFinite(v))
  )
}

/** Whether a string node is checked by keywords alone (no coercion, no value changes). */
function pureString(node: IRString): boolean {
  return !node.coerce && node.checks.every((c) => c.kind !== 'transform' && c.kind !== 'format')
}

function stringSchema(node: IRString, reg: KeywordRegistry): Schema {
  const s: Record<string, unknown> = { type: 'string' }
  const { min, max } = lengthBounds(node.checks)
  const utf16 = node.lengthUnit === 'utf16'
  if (min !== undefined && min > 0) s[utf16 ? 'sgMinUnits' : 'sgMinLength'] = min
  if (max !== undefined) s[utf16 ? 'sgMaxUnits' : 'sgMaxLength'] = max
  const regexes = node.checks.flatMap((c) => (c.kind === 'pattern' ? [reg.regex(c.pattern)] : []))
  if (regexes.length > 0) s.sgRegex = regexes
  return s
}

function numberSchema(node: IRNumber): Schema {
  return { type: node.integer ? 'integer' : 'number', ...numberKeywords(node.checks) }
}

/** A pattern for the keys a library skips in records and catch-alls (ajv cannot list `__proto__`). */
function skippedKeys(ignored: readonly string[] | undefined): string {
  const keys = ['__proto__', ...(ignored ?? [])].map(escapeRegex)
  return `^(?:${keys.join('|')})$`
}

interface Target {
  readonly reg: KeywordRegistry
  readonly defs: Record<string, Schema>
  readonly deferLeaves: boolean
}

/** The schema of a child, deferring as the parent does. */
const v = (node: IRNode, t: Target) => visit(node, schemas, t)
/** The schema of a child the builder may not run (or picks a branch by): nothing deferred. */
const full = (node: IRNode, t: Target) =>
  visit(node, schemas, t.deferLeaves ? { ...t, deferLeaves: false } : t)

function leaf(node: IRNode, t: Target): Schema {
  return t.deferLeaves && !isIdentity(node) ? true : { sgLeaf: t.reg.leaf(compileLeaf(node)) }
}

/**
 * A library cast skips values of the node's own type: those get the plain keywords, the rest the
 * leaf (cast then checks). Deferred, the builder runs the whole leaf on every value instead.
 */
function cast(
  node: NodeOf<'string' | 'number' | 'boolean'>,
  type: string,
  plain: Schema,
  t: Target,
): Schema {
  if (typeof node.coerce !== 'function') return plain
  const other = leaf(node, t)
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else keywords
  return other === true ? true : { if: { type }, then: plain, else: other }
}

const withNull = (schema: Schema): Schema => ({ anyOf: [{ type: 'null' }, schema] })

const schemas: Visitor<Schema, Target> = {
  string: (n, t) =>
    pureString({ ...n, coerce: false }) && n.coerce !== true
      ? cast(n, 'string', stringSchema(n, t.reg), t)
      : leaf(n, t),
  number: (n, t) => (n.coerce === true ? leaf(n, t) : cast(n, 'number', numberSchema(n), t)),
  boolean: (n, t) =>
    n.coerce === true
      ? leaf(n, t)
      : typeof n.coerce === 'function'
        ? cast(n, 'boolean', true, t)
        : { type: 'boolean' },
  ...each(['bigint', 'date', 'nan'], leaf),
  ...each(['literal', 'enum'], (n, t) =>
    n.values.every(isJsonPrimitive) ? { enum: [...new Set(n.values)] } : leaf(n, t),
  ),
  null: () => ({ type: 'null' }),
  unknown: () => true,
  ...each(['undefined', 'never'], () => false),
  array: (n, t) => {
    const item = n.reuseInput === 'always' ? full(n.item, t) : v(n.item, t)
    const s: Record<string, unknown> = { type: 'array', items: item }
    if (n.minItems !== undefined) s.minItems = n.minItems
    if (n.maxItems !== undefined) s.maxItems = n.maxItems
    return s
  },
  tuple: (n, t) => ({
    type: 'array',
    prefixItems: n.items.map((i) => v(i, t)),
    minItems: n.items.length,
    items: n.rest ? v(n.rest, t) : false,
  }),
  object: (n, t) => {
    const properties: Record<string, Schema> = {}
    const prop = n.reuseInput === 'always' ? full : v
    for (const p of n.properties) properties[p.key] = prop(p.value, t)
    const s: Record<string, unknown> = { type: 'object', properties }
    const required = n.properties.filter((p) => p.presence === 'required').map((p) => p.key)
    if (required.length > 0) s.required = required
    // yup takes only `[object Object]`s (and functions, which stay with yup).
    if (n.reuseInput) s.sgObjectTag = true
    if (n.unknownKeys === 'strict') s.additionalProperties = false
    if (n.unknownKeys === 'catchall' && n.catchall) {
      // Like records: the libraries never check (or copy) `__proto__` and ignored keys.
      s.patternProperties = { [skippedKeys(n.ignoredKeys)]: true }
      s.additionalProperties = full(n.catchall, t)
    }
    return s
  },
  record: (n, t) => {
    // The libraries skip `__proto__` (and the adapter's ignored keys) entirely, name and value;
    // so does this check. ajv cannot list `__proto__` under `properties`, so a pattern matches it.
    const skipped = ['__proto__', ...(n.ignoredKeys ?? [])]
    // ajv skips the keywords after `propertyNames` on an empty object: keep them in allOf.
    return {
      type: 'object',
      sgPlain: true,
      allOf: [
        {
          propertyNames: { anyOf: [{ enum: skipped }, full(n.key, t)] },
          patternProperties: { [skippedKeys(n.ignoredKeys)]: true },
          additionalProperties: full(n.value, t),
        },
      ],
    }
  },
  union: (n, t) => {
    if (n.options.length === 1) return v(n.options[0]!, t)
    // Deferred like a value-changing leaf: the builder checks the options in order to pick one,
    // so checking them here too would run the winner's checks twice.
    if (t.deferLeaves && !isIdentity(n)) return true
    return { anyOf: n.options.map((o) => full(o, t)) }
  },
  intersection: (n, t) => ({ allOf: [full(n.left, t), full(n.right, t)] }),
  default: (n, t) =>
    n.on === 'null' || n.on === 'nullish' ? withNull(v(n.inner, t)) : v(n.inner, t),
  ...each(['optional', 'readonly'], (n, t) => v(n.inner, t)),
  nullable: (n, t) => withNull(v(n.inner, t)),
  pipe: (n, t) => {
    // Parts that change nothing are checked by their own keywords, one after the other.
    if (isIdentity(n)) return { allOf: [v(n.in, t), v(n.out, t)] }
    if (leafKinds.has(n.in.kind) && leafKinds.has(n.out.kind)) return leaf(n, t)
    if (isIdentity(n.in)) return { allOf: [v(n.in, t), v(n.out, t)] }
    throw new Error('pipe is not compilable')
  },
  recursive: (n, t) => {
    if (!(n.id in t.defs)) {
      t.defs[n.id] = true
      t.defs[n.id] = full(n.node, t)
    }
    return { $ref: `#/$defs/${n.id}` }
  },
  ref: (n) => ({ $ref: `#/$defs/${n.id}` }),
  ...each(['set', 'native'], (n) => {
    throw new Error(`${n.kind} is not compilable`)
  }),
}

/**
 * Translates an IR node into the JSON Schema ajv validates raw input against: standard keywords
 * wherever they match the library exactly, and the custom keywords `sgLeaf` (a compiled leaf
 * runner), `sgRegex` (the library's own RegExp objects) and `sgPlain` (plain-object check) elsewhere.
 * Recursive nodes are written into `defs`.
 *
 * With `deferLeaves`, a value-changing leaf, and a union that changes its input, are left to the
 * output builder, which runs every node that changes its input on each accepted path anyway and
 * rejects by throwing (one run instead of two). Deferral stops where the builder may not run a node,
 * or picks a branch from these checks: inside unions, intersections, records, catch-alls,
 * recursion and inputs reused as they are.
 */
export function toValidationSchema(
  node: IRNode,
  reg: KeywordRegistry,
  defs: Record<string, Schema>,
  deferLeaves = false,
): Schema {
  return visit(node, schemas, { reg, defs, deferLeaves })
}

/** This module's IR tables, for the test that each has a handler for every kind. */
export const tables = { schemas }
