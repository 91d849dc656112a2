import type { IRNode, IRObject } from '../ir/types.js'

function unwrapObject(node: IRNode): IRObject | undefined {
  if (node.kind === 'object') return node
  if (node.kind === 'readonly') return unwrapObject(node.inner)
  return undefined
}

/**
 * The values of its discriminator `key` an option of a discriminated union answers to: the
 * option's object (through `readonly`), the key's literal or enum values, `undefined` and `null`
 * through its optional and nullable wrappers. A shape, not a walk: any other shape throws, and
 * the schema is left to the library (a compile fallback).
 */
export function discriminatorValues(option: IRNode, key: string): unknown[] {
  const obj = unwrapObject(option)
  const prop = obj?.properties.find((p) => p.key === key)
  if (!prop) throw new Error(`option has no discriminator "${key}"`)
  const values: unknown[] = []
  let n: IRNode = prop.value
  for (;;) {
    if (n.kind === 'optional') values.push(undefined)
    else if (n.kind === 'nullable') values.push(null)
    else break
    n = n.inner
  }
  if (n.kind !== 'literal' && n.kind !== 'enum') throw new Error('discriminator is not a literal')
  values.push(...n.values)
  if (values.some((x) => typeof x === 'bigint')) throw new Error('bigint discriminator')
  return values
}
