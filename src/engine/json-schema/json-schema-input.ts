import type { IRNode, NativeReason } from '../ir/types.js'

// What input mode documents beyond a node's own type: keys that may be absent, tuple items that
// may be missing, rules that take any value (the JSON Schema writer's input-side rules).

// Library rules that take a missing value: the key may be absent whatever its presence says.
export const takesAbsent: ReadonlySet<NativeReason> = new Set([
  'exact-optional',
  'prefault',
  'catch',
  'fallback',
])
export const absentAllowed = (n: IRNode) => n.kind === 'native' && takesAbsent.has(n.reason)
// Rules that turn any input into a value (zod's catch, valibot's fallback): any input is taken.
export const takesAnything: ReadonlySet<NativeReason> = new Set(['catch', 'fallback'])

/** Whether a node takes `undefined` (a missing tuple item) in input mode, as far as the IR says. */
export const takesMissing = (n: IRNode): boolean => {
  switch (n.kind) {
    case 'optional':
    case 'default':
    case 'unknown':
    case 'undefined':
      return true
    case 'nullable':
    case 'readonly':
      return takesMissing(n.inner)
    case 'pipe':
      return takesMissing(n.in)
    case 'union':
      return n.options.some(takesMissing)
    case 'intersection':
      return takesMissing(n.left) && takesMissing(n.right)
    case 'native':
      return takesAbsent.has(n.reason) || n.inner === undefined || takesMissing(n.inner)
    default:
      return 'coerce' in n && n.coerce !== false
  }
}
