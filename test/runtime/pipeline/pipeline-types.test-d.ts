import { type } from 'arktype'
import type { ParamsDictionary } from 'express-serve-static-core'
import * as v from 'valibot'
import { describe, expectTypeOf, it } from 'vitest'
import * as z from 'zod'
import {
  createDTO,
  defineRoute,
  handle,
  type SchemaInput,
  type SchemaOutput,
  validate,
  type zodAdapter,
} from '../../../src/index.js'

const Body = z.object({ name: z.string(), age: z.coerce.number().default(0) })
const Params = z.object({ id: z.coerce.number() })
const Query = z.object({ page: z.coerce.number().default(1) })
const Headers = z.object({ 'x-tenant': z.string() })
const Out = z.object({ id: z.number(), at: z.date().default(() => new Date()) })

describe('schema inference', () => {
  it('reads input and output from zod, adapters and Standard Schema', () => {
    expectTypeOf<SchemaOutput<typeof Body>>().toEqualTypeOf<{ name: string; age: number }>()
    expectTypeOf<SchemaInput<typeof Body>>().toEqualTypeOf<{ name: string; age?: unknown }>()
    expectTypeOf<SchemaOutput<ReturnType<typeof zodAdapter<typeof Params>>>>().toEqualTypeOf<{
      id: number
    }>()
    const ark = type({ n: 'number' })
    expectTypeOf<SchemaOutput<typeof ark>>().toEqualTypeOf<{ n: number }>()
    const vb = v.object({ s: v.string() })
    expectTypeOf<SchemaOutput<typeof vb>>().toEqualTypeOf<{ s: string }>()
  })
})

describe('handle()', () => {
  it('types req.body, req.params, req.query and declared headers from the route', () => {
    handle({ body: Body, params: Params, query: Query, headers: Headers }, (req) => {
      expectTypeOf(req.body).toEqualTypeOf<{ name: string; age: number }>()
      expectTypeOf(req.params).toEqualTypeOf<{ id: number }>()
      expectTypeOf(req.query).toEqualTypeOf<{ page: number }>()
      expectTypeOf(req.headers['x-tenant']).toEqualTypeOf<string>()
      expectTypeOf(req.id).toBeString()
    })
  })

  it('keeps Express defaults for parts without a schema', () => {
    handle({}, (req, res) => {
      expectTypeOf(req.params).toEqualTypeOf<ParamsDictionary>()
      expectTypeOf(req.body).toBeAny()
      res.ok({ data: 'anything' })
    })
  })

  it('checks res.ok/created/accepted data against the response schema input', () => {
    handle({ response: Out }, (_req, res) => {
      res.ok({ data: { id: 1 } })
      res.created({ data: { id: 1, at: new Date() } })
      // @ts-expect-error id must be a number
      res.ok({ data: { id: '1' } })
      // @ts-expect-error data is required with a response schema
      res.accepted({})
      res.noContent()
    })
    handle({ sends: Out }, (_req, res) => {
      // @ts-expect-error sends is the response schema too
      res.ok({ data: { at: new Date() } })
    })
  })

  it('takes a defineRoute() bundle and types transform from the body', () => {
    const route = defineRoute({
      body: Body,
      response: Out,
      transform: (b) => {
        expectTypeOf(b).toEqualTypeOf<{ name: string; age: number }>()
        return b
      },
    })
    handle(route, (req, res) => {
      expectTypeOf(req.body.name).toBeString()
      res.ok({ data: { id: req.body.age } })
    })
  })

  it('returns a spreadable pair of middleware', () => {
    expectTypeOf(handle({}, () => {})).toBeArray()
    expectTypeOf(handle({}, () => {}))
      .toHaveProperty('length')
      .toEqualTypeOf<2>()
  })
})

describe('validate()', () => {
  it('takes the route fields inline', () => {
    validate({
      body: Body,
      allErrors: true,
      limits: { maxDepth: 3 },
      sanitize: { exposeMessage: false },
    })
    // @ts-expect-error allErrors is a boolean
    validate({ allErrors: 'yes' })
  })
})

describe('createDTO()', () => {
  it('has a type-level Input: the validated body', () => {
    const UserDTO = createDTO(z.object({ name: z.string(), n: z.coerce.number() }))
    expectTypeOf<typeof UserDTO.Input>().toEqualTypeOf<{ name: string; n: number }>()
    // @ts-expect-error only zod object schemas
    createDTO(z.string())
    // @ts-expect-error not valibot
    createDTO(v.object({}))
  })
})
