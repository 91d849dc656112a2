import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { toAdapter } from '../../../src/adapters/resolve.js'
import type { IRKind } from '../../../src/engine/ir/types.js'
import { hitsOf, itemsOf, tables } from '../../../src/testing/coverage/coverage-items.js'
import { emptyRecords, mergeRecords } from '../../../src/testing/coverage/records.js'

const ir = (schema: z.ZodType) => toAdapter(schema).ir!

const Node: z.ZodType = z.lazy(() =>
  z.object({ kind: z.enum(['leaf', 'branch']), children: z.array(Node).optional() }),
)
const Body = z.object({
  role: z.enum(['admin', 'user']),
  level: z.union([z.literal(1), z.literal(2)]),
  contact: z.union([z.object({ phone: z.string() }), z.object({ email: z.string() })]),
  tags: z.array(z.object({ color: z.enum(['red', 'blue']).optional() })).optional(),
  pair: z.tuple([z.enum(['x', 'y']), z.number()]),
  owner: z.object({ name: z.string() }).nullable(),
})

describe('coverage items', () => {
  it('lists every enum member, union branch and optional field of a schema by name', () => {
    expect([...itemsOf(ir(Body), 'body')]).toEqual([
      ['body.role = "admin"', 'enums'],
      ['body.role = "user"', 'enums'],
      ['body.level | 1', 'branches'],
      ['body.level | 2', 'branches'],
      ['body.contact | #0', 'branches'],
      ['body.contact | #1', 'branches'],
      ['body.tags?', 'optionals'],
      ['body.tags[].color?', 'optionals'],
      ['body.tags[].color = "red"', 'enums'],
      ['body.tags[].color = "blue"', 'enums'],
      ['body.pair[0] = "x"', 'enums'],
      ['body.pair[0] = "y"', 'enums'],
    ])
  })

  it('names only what a value exercises, under the same names', () => {
    const value = {
      role: 'user',
      level: 2,
      contact: { email: 'a@b.c' },
      tags: [{}, { color: 'blue' }],
      pair: ['x', 1],
      owner: null,
    }
    expect([...hitsOf(ir(Body), 'body', value).keys()]).toEqual([
      'body.role = "user"',
      'body.level | 2',
      'body.contact | #1',
      'body.tags?',
      'body.tags[].color?',
      'body.tags[].color = "blue"',
      'body.pair[0] = "x"',
    ])
    // Walks run on validated values; another value exercises what it holds, and never throws.
    expect(hitsOf(ir(Body), 'body', 'text').size).toBe(0)
    expect([...hitsOf(ir(Body), 'body', { role: 'root', tags: 'no' }).keys()]).toEqual([
      'body.tags?',
    ])
  })

  it('lists a recursive schema once and follows a value down it, within bounds', () => {
    expect([...itemsOf(ir(Node), 'body').keys()]).toEqual([
      'body.kind = "leaf"',
      'body.kind = "branch"',
      'body.children?',
    ])
    let deep: unknown = { kind: 'leaf' }
    for (let i = 0; i < 10_000; i++) deep = { kind: 'branch', children: [deep] }
    expect([...hitsOf(ir(Node), 'body', deep).keys()].sort()).toEqual([
      'body.children?',
      'body.kind = "branch"',
    ])
  })

  it('has a handler for every IR kind', () => {
    const all: IRKind[] = [
      'string',
      'number',
      'bigint',
      'boolean',
      'date',
      'literal',
      'enum',
      'null',
      'undefined',
      'nan',
      'unknown',
      'never',
      'array',
      'object',
      'record',
      'tuple',
      'set',
      'union',
      'intersection',
      'optional',
      'nullable',
      'readonly',
      'default',
      'pipe',
      'recursive',
      'ref',
      'native',
    ]
    expect(Object.keys(tables.table).sort()).toEqual([...all].sort())
  })
})

describe('coverage records', () => {
  it('merges counts and skips what is not in their shape', () => {
    const into = emptyRecords()
    const one = {
      routes: { 'GET /a': { requests: 2, statuses: { 200: 2 }, codes: {}, items: { x: 1 } } },
    }
    mergeRecords(into, one)
    mergeRecords(into, one)
    mergeRecords(into, { routes: { 'GET /a': { requests: -1, statuses: { 500: 'x' } }, b: 3 } })
    mergeRecords(into, null)
    expect(JSON.parse(JSON.stringify(into))).toEqual({
      routes: { 'GET /a': { requests: 4, statuses: { 200: 4 }, codes: {}, items: { x: 2 } } },
    })
  })
})
