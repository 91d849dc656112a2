import { _toLowerCase, _toUpperCase, _trim } from 'zod/v4/core'

// The one place the zod adapter reads a function's source text. zod keeps no name for its string
// normalisers: `.trim()` is an `overwrite` check holding a function like any user's `.overwrite(f)`.
// The installed zod's own normalisers are printed once, at load, and a check's function is named
// by comparing its text with theirs, so nothing here depends on how a zod version writes them.
// test/adapters/zod/function-source.test.ts pins the zod versions this was verified with.
const names = new Map<string, string>([
  [String(_trim()._zod.def.tx), 'trim'],
  [String(_toLowerCase()._zod.def.tx), 'toLowerCase'],
  [String(_toUpperCase()._zod.def.tx), 'toUpperCase'],
])

/**
 * The name of zod's own string normaliser `fn` is (`trim`, `toLowerCase`, `toUpperCase`), or
 * `overwrite` for any other function. The name is documentation: the IR runs `fn` itself.
 * @example transformName(z.string().trim()._zod.def.checks[0]._zod.def.tx) // → 'trim'
 */
export function transformName(fn: unknown): string {
  return (typeof fn === 'function' && names.get(String(fn))) || 'overwrite'
}
