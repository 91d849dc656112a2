import * as v from 'valibot'
import { describe, expectTypeOf, it } from 'vitest'
import * as yup from 'yup'
import * as z from 'zod'
import { defineRoute, handle, validate, zodAdapter } from '../../../src/index.js'
import type { routeKeys } from '../../../src/runtime/pipeline/plan.js'
import type { AnyRoute } from '../../../src/runtime/pipeline/route-types.js'

const Body = z.object({ name: z.string() })

describe('schema slots', () => {
  it('reject anything that is not a schema, in every slot', () => {
    // @ts-expect-error a number is not a schema
    defineRoute({ body: 123 })
    // @ts-expect-error a plain object is not a schema
    defineRoute({ params: { id: 'string' } })
    // @ts-expect-error a string is not a schema
    defineRoute({ query: 'page' })
    // @ts-expect-error null is not a schema
    defineRoute({ headers: null })
    // @ts-expect-error a function is not a schema
    defineRoute({ response: () => ({}) })
    // @ts-expect-error sends is a schema slot too
    defineRoute({ sends: true })
    // @ts-expect-error handle() checks the slots as well
    handle({ body: 123 }, () => {})
    // @ts-expect-error validate() checks the slots as well
    validate({ query: [z.string()] })
  })

  it('accept zod, valibot and yup schemas, adapters and nothing', () => {
    defineRoute({
      body: Body,
      params: v.object({ id: v.string() }),
      query: yup.object({ page: yup.number() }),
      headers: zodAdapter(z.object({ 'x-a': z.string() })),
      response: Body,
    })
    defineRoute({})
    handle({ body: undefined }, () => {})
  })
})

describe('transform', () => {
  it('may return another type, which is then the type of req.body', () => {
    const route = defineRoute({
      body: Body,
      transform: (b) => ({ upper: b.name.toUpperCase(), length: b.name.length }),
    })
    handle(route, (req) => {
      expectTypeOf(req.body).toEqualTypeOf<{ upper: string; length: number }>()
    })
    handle(
      {
        body: Body,
        transform: async (b) => new Date(b.name),
      },
      (req) => {
        expectTypeOf(req.body).toEqualTypeOf<Date>()
      },
    )
  })

  it('gets the body output and leaves req.body typed by the schema without one', () => {
    handle(
      {
        body: Body,
        transform: (b) => {
          expectTypeOf(b).toEqualTypeOf<{ name: string }>()
          return b
        },
      },
      (req) => {
        expectTypeOf(req.body).toEqualTypeOf<{ name: string }>()
      },
    )
    handle({ body: Body }, (req) => {
      expectTypeOf(req.body).toEqualTypeOf<{ name: string }>()
    })
  })
})

describe('rateLimit and cache', () => {
  it('are typed route fields', () => {
    defineRoute({ rateLimit: { windowMs: 1000, max: 1 }, cache: { maxAge: 60, vary: ['Cookie'] } })
    handle({ rateLimit: { windowMs: 1000, max: 1, failOpen: false } }, () => {})
    // @ts-expect-error max is a number
    defineRoute({ rateLimit: { windowMs: 1000, max: '1' } })
    // @ts-expect-error windowMs is required
    defineRoute({ rateLimit: { max: 1 } })
    // @ts-expect-error maxAge is in seconds, a number
    handle({ cache: { maxAge: '60' } }, () => {})
  })
})

describe('routeKeys', () => {
  it('lists every field of a route, so none is refused as a misspelling', () => {
    expectTypeOf<(typeof routeKeys)[number]>().toEqualTypeOf<keyof AnyRoute>()
  })
})
