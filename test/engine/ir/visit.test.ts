import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { zodToIR } from '../../../src/adapters/zod/to-ir.js'
import { irNode } from '../../../src/engine/ir/nodes.js'
import type { IRNode } from '../../../src/engine/ir/types.js'
import { children, visit, visitSome } from '../../../src/engine/ir/visit.js'

const str = irNode({ kind: 'string', coerce: false, lengthUnit: 'code-point', checks: [] })
const num = irNode({ kind: 'number', coerce: false, integer: false, checks: [] })

const edges = (node: IRNode) => children(node).map((e) => [e.key, e.node.kind])

describe('children', () => {
  it('names each edge: keys and indexes for values, * for items, none for same-place children', () => {
    const ir = zodToIR(
      z.object({
        name: z.string(),
        tags: z.array(z.number()),
        pair: z.tuple([z.string()], z.number()),
        labels: z.record(z.string(), z.number()),
        either: z.union([z.string(), z.number()]).optional(),
      }),
    )
    expect(edges(ir)).toEqual([
      ['name', 'string'],
      ['tags', 'array'],
      ['pair', 'tuple'],
      ['labels', 'record'],
      ['either', 'optional'],
    ])
    const child = (key: string) => children(ir).find((e) => e.key === key)!.node
    expect(edges(child('tags'))).toEqual([['*', 'number']])
    expect(edges(child('pair'))).toEqual([
      [0, 'string'],
      ['*', 'number'],
    ])
    expect(edges(child('labels'))).toEqual([
      [undefined, 'string'],
      ['*', 'number'],
    ])
    const union = children(child('either'))[0]!.node
    expect(edges(union)).toEqual([
      [undefined, 'string'],
      [undefined, 'number'],
    ])
  })

  it('gives leaves, refs and kinds it does not know no children', () => {
    expect(children(str)).toEqual([])
    expect(children(irNode({ kind: 'ref', id: 'S' }))).toEqual([])
    expect(children({ kind: 'hologram', safety: 'exact' } as never)).toEqual([])
  })
})

describe('visit', () => {
  it('dispatches on the kind, and throws on a kind the IR does not have', () => {
    const table = Object.fromEntries(
      ['string', 'number'].map((k) => [k, (n: IRNode) => `${n.kind}!`]),
    ) as never
    expect(visit(str, table, undefined)).toBe('string!')
    expect(visit(num, table, undefined)).toBe('number!')
    expect(() => visit({ kind: 'hologram' } as never, table, undefined)).toThrow(
      'unknown IR kind: hologram',
    )
  })

  it('never takes a handler from Object.prototype', () => {
    const otherwise = () => 'otherwise'
    for (const kind of ['constructor', 'toString', '__proto__', 'hasOwnProperty'])
      expect(visitSome({ kind } as never, {}, otherwise, undefined)).toBe('otherwise')
  })

  it('passes the context through', () => {
    expect(visitSome(num, { number: (_, depth: number) => depth + 1 }, () => 0, 41)).toBe(42)
  })
})
