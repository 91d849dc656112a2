import type { IRNode, NativeReason } from '../ir/types.js'
import { each, kinds, type Visitor, visit } from '../ir/visit.js'

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

// Whether a kind's input may be missing, by its own rule or its parts'.
const missing: Visitor<boolean> = {
  ...each(['optional', 'default', 'unknown', 'undefined'], () => true),
  ...each(['nullable', 'readonly'], (n) => takesMissing(n.inner)),
  pipe: (n) => takesMissing(n.in),
  union: (n) => n.options.some(takesMissing),
  intersection: (n) => takesMissing(n.left) && takesMissing(n.right),
  native: (n) => takesAbsent.has(n.reason) || n.inner === undefined || takesMissing(n.inner),
  // A leaf that converts its input reads `undefined` as a value.
  ...each(['string', 'number', 'bigint', 'boolean', 'date'], (n) => n.coerce !== false),
  ...each(
    kinds('literal enum null nan never array object record tuple set recursive ref'),
    () => false,
  ),
}

/** Whether a node takes `undefined` (a missing tuple item) in input mode, as far as the IR says. */
export const takesMissing = (n: IRNode): boolean => visit(n, missing, undefined)

/** This module's IR tables, for the test that each has a handler for every kind. */
export const tables = { missing }
