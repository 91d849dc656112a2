import { type } from 'arktype'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { toAdapter } from '../../../src/adapters/resolve.js'
import { zodAdapter } from '../../../src/index.js'
import { arrayKeysOf, queryArrayKeys } from '../../../src/runtime/pipeline/query-array-keys.js'

describe('arrayKeysOf', () => {
  it('finds array properties through wrappers, pipes and unions', () => {
    const Query = z.object({
      tags: z.array(z.string()),
      ids: z.array(z.coerce.number()).optional(),
      sort: z.array(z.string()).default([]),
      one: z.union([z.string(), z.array(z.string())]),
      pair: z.tuple([z.string(), z.string()]).nullable(),
      page: z.coerce.number(),
      name: z.string().optional(),
    })
    expect([...arrayKeysOf(zodAdapter(Query).ir)].sort()).toEqual([
      'ids',
      'one',
      'pair',
      'sort',
      'tags',
    ])
    expect([...arrayKeysOf(zodAdapter(Query.optional()).ir)]).toHaveLength(5)
  })

  it('is empty without an IR or an object', () => {
    expect(arrayKeysOf(undefined).size).toBe(0)
    expect(arrayKeysOf(zodAdapter(z.string()).ir).size).toBe(0)
  })
})

describe('queryArrayKeys', () => {
  it('reads the IR of an adapter, and Standard JSON Schema without one', () => {
    expect([...queryArrayKeys(zodAdapter(z.object({ t: z.array(z.string()) })))]).toEqual(['t'])
    const ark = type({ 'page?': 'string', 'tags?': 'string[]', 'ids?': 'string | string[]' })
    expect([...queryArrayKeys(toAdapter(ark))].sort()).toEqual(['ids', 'tags'])
    expect(queryArrayKeys(undefined).size).toBe(0)
  })

  it('is empty for a schema with neither', () => {
    // A bare valibot schema: Standard Schema without JSON Schema.
    expect(queryArrayKeys(toAdapter(v.object({ t: v.array(v.string()) }))).size).toBe(0)
  })
})
