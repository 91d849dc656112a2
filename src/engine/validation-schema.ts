import { escapeRegex } from './escape-regex.js'
import type { IRBound, IRNode, IRNumber, IRString } from './ir/types.js'
import { compileLeaf, type LeafRun } from './leaf.js'
import { isIdentity, leafKinds } from './safety.js'

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
  const regexes: number[] = []
  let min = 0
  let max = Number.POSITIVE_INFINITY
  for (const c of node.checks) {
    if (c.kind === 'min_length' || c.kind === 'length') min = Math.max(min, c.value)
    if (c.kind === 'max_length' || c.kind === 'length') max = Math.min(max, c.value)
    if (c.kind === 'pattern') regexes.push(reg.regex(c.pattern))
  }
  const utf16 = node.lengthUnit === 'utf16'
  if (min > 0) s[utf16 ? 'sgMinUnits' : 'sgMinLength'] = min
  if (max !== Number.POSITIVE_INFINITY) s[utf16 ? 'sgMaxUnits' : 'sgMaxLength'] = max
  if (regexes.length > 0) s.sgRegex = regexes
  return s
}

function numberSchema(node: IRNumber): Schema {
  const s: Record<string, unknown> = { type: node.integer ? 'integer' : 'number' }
  const pick = (
    kind: IRBound<number>['kind'],
    key: string,
    f: (a: number, b: number) => number,
  ) => {
    const values = node.checks.filter((c) => c.kind === kind).map((c) => c.value)
    if (values.length > 0) s[key] = values.reduce((a, b) => f(a, b))
  }
  pick('gte', 'minimum', Math.max)
  pick('gt', 'exclusiveMinimum', Math.max)
  pick('lte', 'maximum', Math.min)
  pick('lt', 'exclusiveMaximum', Math.min)
  const steps = node.checks.filter((c) => c.kind === 'multiple_of').map((c) => c.value)
  if (steps.length === 1) s.multipleOf = steps[0]
  if (steps.length > 1) s.allOf = steps.map((m) => ({ multipleOf: m }))
  return s
}

/** A pattern for the keys a library skips in records and catch-alls (ajv cannot list `__proto__`). */
function skippedKeys(ignored: readonly string[] | undefined): string {
  const keys = ['__proto__', ...(ignored ?? [])].map(escapeRegex)
  return `^(?:${keys.join('|')})$`
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
  const v = (n: IRNode) => toValidationSchema(n, reg, defs, deferLeaves)
  const full = (n: IRNode) => toValidationSchema(n, reg, defs)
  const leaf = () =>
    deferLeaves && !isIdentity(node) ? true : { sgLeaf: reg.leaf(compileLeaf(node)) }
  // A library cast skips values of the node's own type: those get the plain keywords, the rest
  // the leaf (cast then checks). Deferred, the builder runs the whole leaf on every value instead.
  const cast = (type: string, plain: Schema) => {
    if (typeof (node as { coerce?: unknown }).coerce !== 'function') return undefined
    const other = leaf()
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else keywords
    return other === true ? true : { if: { type }, then: plain, else: other }
  }
  switch (node.kind) {
    case 'string':
      if (pureString({ ...node, coerce: false }) && node.coerce !== true)
        return cast('string', stringSchema(node, reg)) ?? stringSchema(node, reg)
      return leaf()
    case 'number':
      if (node.coerce === true) return leaf()
      return cast('number', numberSchema(node)) ?? numberSchema(node)
    case 'boolean':
      if (node.coerce === true) return leaf()
      return cast('boolean', true) ?? { type: 'boolean' }
    case 'bigint':
    case 'date':
    case 'nan':
      return leaf()
    case 'literal':
    case 'enum':
      return node.values.every(isJsonPrimitive) ? { enum: [...new Set(node.values)] } : leaf()
    case 'null':
      return { type: 'null' }
    case 'unknown':
      return true
    case 'undefined':
    case 'never':
      return false
    case 'array': {
      const item = node.reuseInput === 'always' ? full(node.item) : v(node.item)
      const s: Record<string, unknown> = { type: 'array', items: item }
      if (node.minItems !== undefined) s.minItems = node.minItems
      if (node.maxItems !== undefined) s.maxItems = node.maxItems
      return s
    }
    case 'tuple':
      return {
        type: 'array',
        prefixItems: node.items.map(v),
        minItems: node.items.length,
        items: node.rest ? v(node.rest) : false,
      }
    case 'object': {
      const properties: Record<string, Schema> = {}
      const prop = node.reuseInput === 'always' ? full : v
      for (const p of node.properties) properties[p.key] = prop(p.value)
      const s: Record<string, unknown> = { type: 'object', properties }
      const required = node.properties.filter((p) => p.presence === 'required').map((p) => p.key)
      if (required.length > 0) s.required = required
      // yup takes only `[object Object]`s (and functions, which stay with yup).
      if (node.reuseInput) s.sgObjectTag = true
      if (node.unknownKeys === 'strict') s.additionalProperties = false
      if (node.unknownKeys === 'catchall' && node.catchall) {
        // Like records: the libraries never check (or copy) `__proto__` and ignored keys.
        s.patternProperties = { [skippedKeys(node.ignoredKeys)]: true }
        s.additionalProperties = full(node.catchall)
      }
      return s
    }
    case 'record': {
      // The libraries skip `__proto__` (and the adapter's ignored keys) entirely, name and value;
      // so does this check. ajv cannot list `__proto__` under `properties`, so a pattern matches it.
      const skipped = ['__proto__', ...(node.ignoredKeys ?? [])]
      // ajv skips the keywords after `propertyNames` on an empty object: keep them in allOf.
      return {
        type: 'object',
        sgPlain: true,
        allOf: [
          {
            propertyNames: { anyOf: [{ enum: skipped }, full(node.key)] },
            patternProperties: { [skippedKeys(node.ignoredKeys)]: true },
            additionalProperties: full(node.value),
          },
        ],
      }
    }
    case 'union':
      if (node.options.length === 1) return v(node.options[0]!)
      // Deferred like a value-changing leaf: the builder checks the options in order to pick one,
      // so checking them here too would run the winner's checks twice.
      if (deferLeaves && !isIdentity(node)) return true
      return { anyOf: node.options.map(full) }
    case 'intersection':
      return { allOf: [full(node.left), full(node.right)] }
    case 'default':
      return node.on === 'null' || node.on === 'nullish'
        ? { anyOf: [{ type: 'null' }, v(node.inner)] }
        : v(node.inner)
    case 'optional':
    case 'readonly':
      return v(node.inner)
    case 'nullable':
      return { anyOf: [{ type: 'null' }, v(node.inner)] }
    case 'pipe':
      // Parts that change nothing are checked by their own keywords, one after the other.
      if (isIdentity(node)) return { allOf: [v(node.in), v(node.out)] }
      if (leafKinds.has(node.in.kind) && leafKinds.has(node.out.kind)) return leaf()
      if (isIdentity(node.in)) return { allOf: [v(node.in), v(node.out)] }
      throw new Error('pipe is not compilable')
    case 'recursive':
      if (!(node.id in defs)) {
        defs[node.id] = true
        defs[node.id] = full(node.node)
      }
      return { $ref: `#/$defs/${node.id}` }
    case 'ref':
      return { $ref: `#/$defs/${node.id}` }
    default:
      throw new Error(`${node.kind} is not compilable`)
  }
}
