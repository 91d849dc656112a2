import { linearTestOptions } from './linear-patterns.js'
import type { YupTest } from './yup-test.js'

// The parts of a yup schema (or `lazy`) this rewrite reads and replaces on a clone.
interface Rewritable {
  readonly __isYupSchema__: true
  readonly type: string
  tests: YupTest[]
  conditions: { fn: (...args: unknown[]) => unknown }[]
  fields?: Record<string, unknown>
  innerType?: unknown
  spec: { types?: unknown[] }
  builder?: (...args: unknown[]) => unknown
  clone(): Rewritable
  test(options: YupTest['OPTIONS']): Rewritable
}

const isSchema = (x: unknown): x is Rewritable =>
  typeof x === 'object' && x !== null && (x as Rewritable).__isYupSchema__ === true

const cache = new WeakMap<object, unknown>()

/**
 * The schema with every built-in test whose pattern backtracks badly (yup's `url()`) rebuilt on
 * its linear-time equivalent, and every object's fields in a null-prototype record, at every
 * depth, also in what `when()` and `lazy()` produce while validating; the schema itself when
 * nothing needed it. Messages, names, params and order stay.
 * @param schema a yup 1 schema; never modified.
 * @example linearSchema(object({ site: string().url() })).validateSync({ site: 'https://a.io' })
 */
export function linearSchema<S>(schema: S): S {
  if (!isSchema(schema)) return schema
  const hit = cache.get(schema)
  if (hit !== undefined) return hit as S
  const out = rewrite(schema)
  cache.set(schema, out)
  return out as S
}

// What `when()` resolves to is a new schema on every validation: rewritten, never cached (a
// WeakMap entry per validation costs more in garbage collection than the rewrite itself).
function linearResolved(schema: unknown): unknown {
  return isSchema(schema) ? rewrite(schema) : schema
}

function rewrite(schema: Rewritable): Rewritable {
  if (schema.type === 'lazy') {
    const next = schema.clone()
    const build = schema.builder!
    next.builder = (...args) => linearSchema(build(...args))
    return next
  }
  const tests = schema.tests.map((t) => {
    const options = linearTestOptions(t.OPTIONS)
    if (options === undefined) return t
    // yup's own `test()` makes the validation function; take it from a throwaway clone.
    return schema.test(options).tests.at(-1)!
  })
  const fields = schema.fields && mapValues(schema.fields)
  const inner = schema.innerType === undefined ? undefined : linearSchema(schema.innerType)
  const types = schema.type === 'tuple' ? schema.spec.types?.map(linearSchema) : undefined
  const changed =
    tests.some((t, i) => t !== schema.tests[i]) ||
    schema.conditions.length > 0 ||
    fields !== schema.fields ||
    inner !== schema.innerType ||
    types?.some((t, i) => t !== schema.spec.types![i]) === true
  if (!changed) return schema
  const next = schema.clone()
  next.tests = tests
  // What a condition returns is only known while validating: rewritten then (cached per schema).
  next.conditions = schema.conditions.map((c) => {
    const fn = c.fn
    return Object.assign(Object.create(Object.getPrototypeOf(c)), c, {
      fn: (...args: unknown[]) => linearResolved(fn(...args)),
    })
  })
  if (fields !== undefined) next.fields = fields
  if (inner !== undefined) next.innerType = inner
  if (types !== undefined) next.spec.types = types
  return next
}

// yup looks an object's keys up in `fields` (`fields[key].resolve(…)`), which its clone() copies
// into a plain object: a key named like an Object.prototype member (`toString`, `valueOf`) finds
// the inherited function and yup throws. With no prototype, such a key is unknown like any other.
function mapValues(fields: Record<string, unknown>): Record<string, unknown> {
  let changed = Object.getPrototypeOf(fields) !== null
  const out: Record<string, unknown> = Object.create(null)
  for (const [key, value] of Object.entries(fields)) {
    out[key] = linearSchema(value)
    if (out[key] !== value) changed = true
  }
  return changed ? out : fields
}
