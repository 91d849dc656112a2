import { withSafety } from './safety.js'
import type { IRNode, IRSimple } from './types.js'

// The parameterless kinds zod and valibot name alike, and the IR kind each becomes.
const names = {
  null: 'null',
  undefined: 'undefined',
  void: 'undefined',
  nan: 'nan',
  any: 'unknown',
  unknown: 'unknown',
  never: 'never',
} as const satisfies Record<string, IRSimple['kind']>

/**
 * Converters for the parameterless kinds (`null`, `undefined`, `void`, `nan`, `any`, `unknown`,
 * `never`), for an adapter's lookup table.
 * @example const table = { ...simpleKinds(), string: … }
 */
export function simpleKinds(): Record<keyof typeof names, () => IRNode> {
  const out = {} as Record<keyof typeof names, () => IRNode>
  for (const [name, kind] of Object.entries(names) as [keyof typeof names, IRSimple['kind']][]) {
    out[name] = () => withSafety<IRSimple>({ kind })
  }
  return out
}
