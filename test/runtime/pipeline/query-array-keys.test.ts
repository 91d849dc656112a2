import { type } from 'arktype'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { toAdapter } from '../../../src/adapters/resolve.js'
import type { IRNode } from '../../../src/engine/ir/types.js'
import { zodAdapter } from '../../../src/index.js'
import {
  arrayKeysOf,
  listSingles,
  queryArrayKeys,
} from '../../../src/runtime/pipeline/query-array-keys.js'

const sorted = (keys: ReadonlySet<string>) => [...keys].sort()

describe('arrayKeysOf', () => {
  it('finds array properties through wrappers, pipes and unions; lists take nothing else', () => {
    const Query = z.object({
      tags: z.array(z.string()),
      ids: z.array(z.coerce.number()).optional(),
      sort: z.array(z.string()).default([]),
      one: z.union([z.string(), z.array(z.string())]),
      pair: z.tuple([z.string(), z.string()]).nullable(),
      many: z.union([z.array(z.string()), z.tuple([z.number()]), z.null()]),
      csv: z
        .string()
        .transform((s) => s.split(','))
        .pipe(z.array(z.string())),
      page: z.coerce.number(),
      name: z.string().optional(),
    })
    const keys = arrayKeysOf(zodAdapter(Query).ir)
    expect(sorted(keys.repeatable)).toEqual(['csv', 'ids', 'many', 'one', 'pair', 'sort', 'tags'])
    expect(sorted(keys.lists)).toEqual(['ids', 'many', 'pair', 'sort', 'tags'])
    expect(arrayKeysOf(zodAdapter(Query.optional()).ir).lists.size).toBe(5)
  })

  it('leaves out of the lists what user code sees as it came (a preprocess)', () => {
    const array: IRNode = {
      kind: 'array',
      item: { kind: 'unknown', safety: 'exact' },
      safety: 'exact',
    }
    const pre: IRNode = { kind: 'native', reason: 'preprocess', inner: array, safety: 'native' }
    const ir: IRNode = {
      kind: 'object',
      properties: [
        { key: 'pre', value: pre, presence: 'required', outputOptional: false },
        { key: 'list', value: array, presence: 'required', outputOptional: false },
      ],
      unknownKeys: 'strip',
      safety: 'native',
    }
    expect([sorted(arrayKeysOf(ir).repeatable), [...arrayKeysOf(ir).lists]]).toEqual([
      ['list', 'pre'],
      ['list'],
    ])
  })

  it('is empty without an IR or an object', () => {
    expect(arrayKeysOf(undefined).repeatable.size).toBe(0)
    expect(arrayKeysOf(zodAdapter(z.string()).ir).lists.size).toBe(0)
  })
})

describe('queryArrayKeys', () => {
  it('reads the IR of an adapter, and Standard JSON Schema without one', () => {
    expect(queryArrayKeys(zodAdapter(z.object({ t: z.array(z.string()) })))).toEqual({
      repeatable: new Set(['t']),
      lists: new Set(['t']),
    })
    const ark = type({
      'page?': 'string',
      'tags?': 'string[]',
      'ids?': 'string | string[]',
      'maybe?': 'string[] | null',
    })
    expect(sorted(queryArrayKeys(toAdapter(ark)).repeatable)).toEqual(['ids', 'maybe', 'tags'])
    expect(sorted(queryArrayKeys(toAdapter(ark)).lists)).toEqual(['maybe', 'tags'])
    expect(queryArrayKeys(undefined).repeatable.size).toBe(0)
  })

  it('is empty for a schema with neither', () => {
    // A bare valibot schema: Standard Schema without JSON Schema.
    const keys = queryArrayKeys(toAdapter(v.object({ t: v.array(v.string()) })))
    expect([keys.repeatable.size, keys.lists.size]).toEqual([0, 0])
  })
})

describe('listSingles', () => {
  it('makes a single string of a list key a one-element array, and nothing else', () => {
    const query = { ids: '5', tags: ['a', 'b'], nested: { a: '1' }, page: '2' }
    expect(listSingles(query, new Set(['ids', 'tags', 'nested', 'absent']))).toEqual({
      ids: ['5'],
      tags: ['a', 'b'],
      nested: { a: '1' },
      page: '2',
    })
    expect(listSingles(undefined, new Set(['ids']))).toBeUndefined()
  })

  it('reads own keys only', () => {
    const query = Object.create({ ids: '5' }) as Record<string, unknown>
    expect(listSingles(query, new Set(['ids']))).toEqual({})
    expect(Object.hasOwn(query, 'ids')).toBe(false)
  })
})
