import type { SchemaAdapter } from '../adapter.js'
import { compile, compileNode, countFallback } from './compile.js'

/**
 * Writes a value's JSON text through a response schema: the text `JSON.stringify` gives for what
 * `compile(adapter).validate(value)` returns on success. `undefined` when the compiled path does
 * not answer (the checks reject, a path they left open, a value `JSON.stringify` throws on or
 * leaves out): the caller then validates and serialises as before, which decides.
 */
export type JsonWriter = (value: unknown, key: string) => string | undefined

let serial = 0
const writers = new WeakMap<SchemaAdapter<unknown, unknown>, JsonWriter | null>()

/**
 * Compiles a response schema into a `JsonWriter` (checks, then stripping and serialising in one
 * walk), once per adapter; `undefined` when the schema has no compiled path.
 * @example compileJson(zodAdapter(User))?.({ id: 1, password: 'x' }, 'data') // → '{"id":1}'
 */
export function compileJson(adapter: SchemaAdapter<unknown, unknown>): JsonWriter | undefined {
  const hit = writers.get(adapter)
  if (hit !== undefined) return hit ?? undefined
  let writer: JsonWriter | null = null
  const ir = adapter.ir
  // Without a compiled validator (a fallback already counted and reported) there is no writer.
  if (ir && compile(adapter).compiled) {
    try {
      const { check, serialize } = compileNode(ir, true)
      // Any throw (REJECT, a cycle, a BigInt) leaves the answer to the caller's slower path,
      // which throws exactly what it always did.
      const body = `// json writer ${++serial}
return function writeJson(input, key) {
  try {
    if (input !== undefined && check(input)) return serialize(input, key)
  } catch {}
  return undefined
}`
      writer = new Function('check', 'serialize', body)(check, serialize) as JsonWriter
    } catch {
      countFallback()
    }
  }
  writers.set(adapter, writer)
  return writer ?? undefined
}
