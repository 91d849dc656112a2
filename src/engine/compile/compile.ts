import Ajv2020, { _, type KeywordCxt } from 'ajv/dist/2020.js'
import { isPlainObject } from '../../shared/is-object.js'
import type { SchemaAdapter } from '../adapter.js'
import type { IRNode } from '../ir/types.js'
import type { Result } from '../result.js'
import { type Builder, BuilderCode, compileBuilder, REJECT } from './builder.js'
import { codePoints, FAIL, type LeafRun, lengthFails } from './leaf.js'
import { compileSerializer, type Serializer } from './serialize.js'
import { type KeywordRegistry, toValidationSchema } from './validation-schema.js'

/** Validates one request part: compiled fast accept, the library's own parser on reject. */
export interface PartValidator<Output = unknown> {
  /** Returns a promise only when the schema has async checks. `allErrors`: every issue, else the first. */
  validate(input: unknown, allErrors: boolean): Result<Output> | Promise<Result<Output>>
  /** True when the compiled path runs first; false when every input goes to the native parser. */
  readonly compiled: boolean
  /**
   * Why a schema whose IR should have compiled runs on the native parser only: a compiler bug or a
   * construct the compiler cannot express. Answers stay right (the native parser decides); only
   * speed is lost, so the runtime warns about it in development.
   */
  readonly fallback?: Error
}

let fallbacks = 0

/**
 * How many schemas fell back to the native parser because compiling their IR threw, since the
 * process started. The test suite fails on any it did not expect.
 * @example compileFallbacks() // → 0
 */
export function compileFallbacks(): number {
  return fallbacks
}

type Check = ((x: unknown) => boolean) & { errors?: unknown }

// The run-time values of the schema being compiled, by id. The keywords copy each one into the
// validator's own scope when ajv compiles it, so these lists are emptied after every compile:
// nothing of a schema is kept once its validator is gone.
const leaves: LeafRun[] = []
const regexes: RegExp[] = []
const registry: KeywordRegistry = {
  leaf: (run) => leaves.push(run) - 1,
  regex: (re) => regexes.push(re) - 1,
}

const isPlainWithoutSymbols = (x: object) =>
  isPlainObject(x) && Object.getOwnPropertySymbols(x).length === 0

const lengthKeywords = [
  ['sgMinLength', 'min_length', 'code-point'],
  ['sgMaxLength', 'max_length', 'code-point'],
  ['sgMinUnits', 'min_length', 'utf16'],
  ['sgMaxUnits', 'max_length', 'utf16'],
] as const

const ROTATE_AFTER = 32
let shared: Ajv2020 | undefined
let uses = 0

/**
 * The ajv instance for the next schema. An instance keeps every value its validators use (leaf
 * runners, patterns) for as long as it lives, so a fresh one takes over every 32 schemas: the
 * retired one, referenced by no validator, goes with its garbage, and a process that builds
 * schemas per request stays flat. Construction, shared by those 32, is part of the first compile
 * bench/engine.bench.ts times (`compileCost` in bench/results/engine-node26.json).
 */
function ajv() {
  // Constructed on first compile, not at import: importing the package must stay cheap.
  if (shared && ++uses < ROTATE_AFTER) return shared
  uses = 0
  const Ctor = (Ajv2020 as unknown as { default?: typeof Ajv2020 }).default ?? Ajv2020
  const instance = new Ctor({
    strict: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allErrors: false,
    logger: false,
    addUsedSchema: false,
    // Our own generated schemas: checking them against the meta-schema costs compile time only.
    validateSchema: false,
    code: { optimize: false },
  })
  // Inline keywords: ajv writes the call into the validator, with no per-call context object.
  const fn = (cxt: KeywordCxt, f: unknown) => cxt.gen.scopeValue('func', { ref: f })
  // Code written as text (the leaf compiler's): ajv's `_` tag, called on a template of one part.
  const code = (text: string) => _(Object.assign([text], { raw: [text] }))
  instance.addKeyword({
    keyword: 'sgLeaf',
    schemaType: 'number',
    code(cxt) {
      const run = fn(cxt, leaves[cxt.schema as number])
      const fail = cxt.gen.scopeValue('obj', { ref: FAIL })
      cxt.fail(_`${run}(${cxt.data}) === ${fail}`)
    },
  })
  instance.addKeyword({
    keyword: 'sgRegex',
    type: 'string',
    schemaType: 'array',
    code(cxt) {
      for (const id of cxt.schema as number[]) {
        const re = regexes[id]!
        const ref = cxt.gen.scopeValue('pattern', { ref: re })
        cxt.fail(
          re.global || re.sticky
            ? _`(${ref}.lastIndex = 0, !${ref}.test(${cxt.data}))`
            : _`!${ref}.test(${cxt.data})`,
        )
      }
    },
  })
  // String lengths: code points as zod counts them, UTF-16 units as valibot and yup count
  // (`"😀".length === 2`); the rule itself is the leaf compiler's.
  for (const [keyword, check, unit] of lengthKeywords) {
    instance.addKeyword({
      keyword,
      type: 'string',
      schemaType: 'number',
      code(cxt) {
        const cp = String(fn(cxt, codePoints))
        cxt.fail(code(lengthFails(check, cxt.schema as number, String(cxt.data), unit, cp)))
      },
    })
  }
  // yup's isObject: `[object Object]` (a cheap test, unlike listing an object's symbols).
  const tag = Object.prototype.toString
  instance.addKeyword({
    keyword: 'sgObjectTag',
    type: 'object',
    schemaType: 'boolean',
    code(cxt) {
      cxt.fail(_`${fn(cxt, tag)}.call(${cxt.data}) !== '[object Object]'`)
    },
  })
  instance.addKeyword({
    keyword: 'sgPlain',
    type: 'object',
    schemaType: 'boolean',
    code(cxt) {
      cxt.fail(_`!${fn(cxt, isPlainWithoutSymbols)}(${cxt.data})`)
    },
  })
  shared = instance
  return instance
}

interface Compiled {
  check: Check
  build: Builder
  serialize: Serializer | undefined
}

export function compileNode(root: IRNode, serializer = false): Compiled {
  const defs: Record<string, unknown> = {}
  const withDefs = (s: unknown) =>
    typeof s === 'object' && Object.keys(defs).length > 0 ? { ...(s as object), $defs: defs } : s
  const instance = ajv()
  // ajv caches every schema it compiles, for good: each is dropped again once compiled, so a
  // schema built per request does not grow the process.
  const checkOf = (schema: unknown): Check => {
    const full = withDefs(schema) as never
    try {
      return instance.compile(full) as Check
    } finally {
      // A boolean schema (`true`: everything left to the builder) is not cached, nor removable.
      if (typeof full === 'object') instance.removeSchema(full)
    }
  }
  try {
    const check = checkOf(toValidationSchema(root, registry, defs as never, true))
    const ctx = {
      check: (node: IRNode) => checkOf(toValidationSchema(node, registry, defs as never)),
    }
    const build = compileBuilder(root, ctx)
    const serialize = serializer ? compileSerializer(root, new BuilderCode(ctx)) : undefined
    return { check, build, serialize }
  } finally {
    leaves.length = 0
    regexes.length = 0
  }
}

function nativeOnly<O>(adapter: SchemaAdapter<unknown, O>): PartValidator<O>['validate'] {
  return function validate(input, allErrors) {
    const r = adapter.parse(input, allErrors)
    if (r instanceof Promise) return r.then((res) => firstOnly(res, allErrors))
    return firstOnly(r, allErrors)
  }
}

function firstOnly<O>(r: Result<O>, allErrors: boolean): Result<O> {
  if (r.success || allErrors || r.issues.length <= 1) return r
  return { success: false, issues: r.issues.slice(0, 1) }
}

let serial = 0

/**
 * The compiled check and builder, then the library on a rejection. Generated once per schema (a
 * numbered source, so V8 never shares it): one closure shared by every schema would share its call
 * feedback too, and stop inlining `check` and `build` as soon as a second schema runs.
 */
function fastPath<O>(
  check: Check,
  build: Builder,
  native: PartValidator<O>['validate'],
): PartValidator<O>['validate'] {
  // REJECT: a path the checks left open; RangeError: a cyclic input (from code, never JSON)
  // overflowed the compiled recursion. The library handles both.
  const body = `// validator ${++serial}
return function validate(input, allErrors) {
  try {
    if (input !== undefined && check(input)) return { success: true, data: build(input) }
  } catch (e) {
    if (e !== REJECT && !(e instanceof RangeError)) throw e
  }
  return native(input, allErrors)
}`
  return new Function('check', 'build', 'native', 'REJECT', body)(check, build, native, REJECT)
}

// Per adapter, which every factory caches per schema object: one schema may come through several
// adapters (a bare valibot schema and valibotAdapter, yupAdapter with and without stripUnknown),
// which must not share a validator.
const cache = new WeakMap<SchemaAdapter<unknown, unknown>, PartValidator>()

/**
 * Compiles a schema adapter into a part validator, once per adapter (WeakMap cache).
 * Falls back to the native parser alone when the IR is missing, needs native, or fails to compile.
 * @example compile(zodAdapter(User)).validate(req.body, false)
 */
export function compile<O>(adapter: SchemaAdapter<unknown, O>): PartValidator<O> {
  const hit = cache.get(adapter)
  if (hit) return hit as PartValidator<O>
  const native = nativeOnly(adapter)
  let compiled: Compiled | undefined
  let fallback: Error | undefined
  const ir = adapter.ir
  if (ir && ir.safety !== 'native' && !adapter.async) {
    try {
      compiled = compileNode(ir)
    } catch (err) {
      // Never an error for the user: the native parser answers every input. But never silent:
      // counted here, reported by whoever compiled the schema.
      fallbacks++
      fallback = err instanceof Error ? err : new Error(String(err))
    }
  }
  let validator: PartValidator<O>
  if (compiled) {
    validator = { compiled: true, validate: fastPath(compiled.check, compiled.build, native) }
  } else if (fallback) validator = { validate: native, compiled: false, fallback }
  else validator = { validate: native, compiled: false }
  cache.set(adapter, validator as PartValidator)
  return validator
}

/** Counts a compile fallback found by another compiler of the same IR (the JSON writer). */
export function countFallback(): void {
  fallbacks++
}
