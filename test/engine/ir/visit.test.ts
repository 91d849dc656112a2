import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { zodToIR } from '../../../src/adapters/zod/to-ir.js'
import { tables as builder } from '../../../src/engine/compile/builder.js'
import { tables as leaf } from '../../../src/engine/compile/leaf.js'
import { tables as serialize } from '../../../src/engine/compile/serialize.js'
import { tables as validationSchema } from '../../../src/engine/compile/validation-schema.js'
import { irNode } from '../../../src/engine/ir/nodes.js'
import { tables as safety } from '../../../src/engine/ir/safety.js'
import type { IRKind, IRNode } from '../../../src/engine/ir/types.js'
import {
  children,
  kinds,
  visit,
  visitSome,
  tables as visitTables,
} from '../../../src/engine/ir/visit.js'
import { tables as jsonSchema } from '../../../src/engine/json-schema/json-schema.js'
import { tables as closed } from '../../../src/engine/json-schema/json-schema-closed.js'
import { tables as input } from '../../../src/engine/json-schema/json-schema-input.js'
import { tables as invalid } from '../../../src/testing/arbitrary/ir-invalid.js'
import { tables as valid } from '../../../src/testing/arbitrary/ir-valid.js'
import { tables as leafMisses } from '../../../src/testing/arbitrary/leaf-misses.js'

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

describe('kinds', () => {
  it('lists the kinds of a space-separated string', () => {
    expect(kinds('string ref')).toEqual(['string', 'ref'])
  })
})

const irKinds = kinds(
  'string number bigint boolean date literal enum null undefined nan unknown never array object record tuple set union intersection optional nullable readonly default pipe recursive ref native',
)
expectTypeOf<(typeof irKinds)[number]>().toEqualTypeOf<IRKind>()

const modules = {
  builder,
  leaf,
  serialize,
  validationSchema,
  safety,
  visit: visitTables,
  jsonSchema,
  closed,
  input,
  invalid,
  valid,
  leafMisses,
}

const root = join(import.meta.dirname, '../../../src')
const sources = (dir: string) =>
  readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f))

describe('the IR tables', () => {
  it('each have an own handler for every kind, and for nothing else', () => {
    for (const [module, tables] of Object.entries(modules)) {
      for (const [name, table] of Object.entries(tables)) {
        expect(Object.keys(table).sort(), `${module}.${name}`).toEqual([...irKinds].sort())
      }
    }
  })

  it('are the only dispatch on a kind in the engine and the arbitraries: none is partial', () => {
    const files = [...sources('engine'), ...sources('testing/arbitrary')].filter(
      (f) => f !== join('engine', 'ir', 'visit.ts'),
    )
    const partial = files.filter((f) =>
      /visitSome\(|Partial<Visitor|switch \([\w.]*\.kind\)/.test(
        readFileSync(join(root, f), 'utf8'),
      ),
    )
    expect(partial).toEqual([])
  })
})
