import { mixed, number, string } from 'yup'

// The one place the yup adapter reads a function's source text. yup makes a new closure for each
// schema's cast and for each trim()/lowercase()/uppercase(), so these cannot be told from a user's
// `.transform(f)` by identity. The installed yup's own functions are printed once, at load, and
// compared by text, so nothing here depends on how a yup version writes them.
// test/adapters/yup/function-source.test.ts pins the yup versions this was verified with.

const numberCast = String(number().transforms[0])

const probe = string().trim().lowercase().uppercase().transforms.slice(1).map(String)
const stringTransforms = new Map<string, string>([
  [probe[0]!, 'trim'],
  [probe[1]!, 'toLowerCase'],
  [probe[2]!, 'toUpperCase'],
])

/** Whether `fn` is yup's own number cast (which the engine replaces by an equivalent one). */
export function isNumberCast(fn: unknown): boolean {
  return typeof fn === 'function' && String(fn) === numberCast
}

/**
 * The name of yup's own string transform `fn` is (`trim`, `toLowerCase`, `toUpperCase`), or
 * undefined for a transform of the user's.
 */
export function stringTransformName(fn: unknown): string | undefined {
  return typeof fn === 'function' ? stringTransforms.get(String(fn)) : undefined
}

// `mixed()` without a type check shares one `() => true` across schemas: identity, not text.
const acceptsAll: unknown = (mixed() as unknown as { _typeCheck: unknown })._typeCheck

/** Whether a `mixed()` schema has yup's own accept-all type check (no check of the user's). */
export function hasNoTypeCheck(schema: { readonly _typeCheck: unknown }): boolean {
  return schema._typeCheck === acceptsAll
}
