import { describe, expect, it } from 'vitest'
import { toAdapter } from '../../src/adapters/resolve.js'
import { valibotAdapter } from '../../src/adapters/valibot/index.js'
import { yupAdapter } from '../../src/adapters/yup/index.js'
import { zodAdapter } from '../../src/adapters/zod/index.js'
import { compile, type SchemaAdapter } from '../../src/engine/index.js'
import {
  arktypeSchemas,
  emptyQueryParsed,
  invalidParams,
  invalidQuery,
  invalidUser,
  parsedQuery,
  valibotSchemas,
  validParams,
  validQuery,
  validUser,
  yupSchemas,
  zodSchemas,
} from '../fixtures/schemas.js'
import { valibotHasToNumber } from '../support/peer-features.js'

type Parts = Record<'body' | 'query' | 'params', SchemaAdapter>

// The same route through every library's adapter, as validate() will run it.
// `native`: parts that validate natively although the library compiles: before valibot 1.2 the
// query converts with transform(Number), not toNumber() (test/fixtures/schemas.ts).
const libraries: Record<string, { parts: Parts; compiled: boolean; native?: (keyof Parts)[] }> = {
  zod: {
    parts: {
      body: zodAdapter(zodSchemas.body),
      query: zodAdapter(zodSchemas.query),
      params: zodAdapter(zodSchemas.params),
    },
    compiled: true,
  },
  valibot: {
    parts: {
      body: valibotAdapter(valibotSchemas.body),
      query: valibotAdapter(valibotSchemas.query),
      params: valibotAdapter(valibotSchemas.params),
    },
    compiled: true,
    native: valibotHasToNumber ? [] : ['query'],
  },
  yup: {
    parts: {
      body: yupAdapter(yupSchemas.body),
      query: yupAdapter(yupSchemas.query),
      params: yupAdapter(yupSchemas.params),
    },
    compiled: true,
  },
  'arktype (Standard Schema)': {
    parts: {
      body: toAdapter(arktypeSchemas.body),
      query: toAdapter(arktypeSchemas.query),
      params: toAdapter(arktypeSchemas.params),
    },
    compiled: false,
  },
}

function run(adapter: SchemaAdapter, input: unknown, allErrors = false) {
  const r = compile(adapter).validate(input, allErrors)
  if (r instanceof Promise) throw new Error('unexpected async result')
  return r
}

describe.each(Object.entries(libraries))('the create-user fixtures through %s', (_, lib) => {
  const { body, query, params } = lib.parts

  it(lib.compiled ? 'compiles every part' : 'validates natively', () => {
    for (const [name, part] of Object.entries(lib.parts)) {
      const native = lib.native?.includes(name as keyof Parts) === true
      expect(compile(part).compiled, name).toBe(lib.compiled && !native)
    }
  })

  it('accepts the valid body as it is, without unknown keys', () => {
    expect(run(body, validUser)).toEqual({ success: true, data: validUser })
    const r = run(body, { ...validUser, extra: true })
    expect(r.success).toBe(true)
  })

  it('parses the query: numbers from strings, defaults for absent values', () => {
    expect(run(query, validQuery)).toEqual({ success: true, data: parsedQuery })
    expect(run(query, {})).toEqual({ success: true, data: emptyQueryParsed })
  })

  it('accepts and rejects params', () => {
    expect(run(params, validParams)).toEqual({ success: true, data: validParams })
    expect(run(params, invalidParams).success).toBe(false)
  })

  it('reports the first issue, or every issue with allErrors, under the library’s own messages', () => {
    const one = run(body, invalidUser, false)
    const all = run(body, invalidUser, true)
    if (one.success || all.success) throw new Error('expected a rejection')
    expect(one.issues).toHaveLength(1)
    const fields = all.issues.map((i) => (i.path.length === 0 ? 'body' : i.path.join('.')))
    expect(fields.sort()).toEqual(['address.zip', 'email'])
    for (const issue of all.issues) {
      expect(issue.message.length).toBeGreaterThan(0)
      expect(issue.code.length).toBeGreaterThan(0)
    }
  })

  it('rejects a bad query and a non-object body', () => {
    expect(run(query, invalidQuery).success).toBe(false)
    // valibot and yup take an array for an object and report its missing keys; zod and ArkType
    // report the body itself: each library's own answer.
    expect(run(body, []).success).toBe(false)
    expect(run(body, 'x').success).toBe(false)
  })
})
