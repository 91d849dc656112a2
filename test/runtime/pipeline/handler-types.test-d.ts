import type { IncomingHttpHeaders } from 'node:http'
import type { Request } from 'express'
import * as v from 'valibot'
import { describe, expectTypeOf, it } from 'vitest'
import * as yup from 'yup'
import * as z from 'zod'
import {
  defineRoute,
  handle,
  type RequestBodyOf,
  type ResponseSent,
  type RouteDefinition,
  type RouteHandler,
  type TypedRequest,
  type TypedResponse,
  validate,
} from '../../../src/index.js'

const Body = z.object({ name: z.string() })
const User = z.object({ id: z.number(), name: z.string() })

describe('handle()', () => {
  it('types req.body, params, query and headers from valibot schemas', () => {
    const route = {
      body: v.object({ tags: v.array(v.string()) }),
      params: v.object({ id: v.pipe(v.string(), v.transform(Number)) }),
      query: v.object({ q: v.optional(v.string()) }),
      headers: v.object({ 'x-key': v.string() }),
    }
    handle(route, (req) => {
      expectTypeOf(req.body).toEqualTypeOf<{ tags: string[] }>()
      expectTypeOf(req.params).toEqualTypeOf<{ id: number }>()
      expectTypeOf(req.query).toEqualTypeOf<{ q?: string | undefined }>()
      expectTypeOf(req.headers['x-key']).toEqualTypeOf<string>()
      expectTypeOf(req.headers['content-type']).toEqualTypeOf<string | undefined>()
    })
  })

  it('types req.body, params and query from yup schemas', () => {
    handle(
      {
        body: yup.object({ age: yup.number().required() }),
        params: yup.object({ id: yup.string().required() }),
        query: yup.object({ page: yup.number().required() }),
      },
      (req) => {
        expectTypeOf(req.body.age).toEqualTypeOf<number>()
        expectTypeOf(req.params.id).toEqualTypeOf<string>()
        expectTypeOf(req.query.page).toEqualTypeOf<number>()
      },
    )
  })

  it('keeps Express headers where the route has no headers schema', () => {
    handle({ body: Body }, (req) => {
      expectTypeOf(req.headers).toEqualTypeOf<IncomingHttpHeaders>()
    })
  })

  it('checks res.ok against valibot and yup response schemas, and says what it returns', () => {
    handle({ response: v.object({ id: v.number() }) }, (_req, res) => {
      expectTypeOf(res.ok({ data: { id: 1 } })).toEqualTypeOf<ResponseSent>()
      // @ts-expect-error id is a number
      res.ok({ data: { id: 'a' } })
    })
    handle({ sends: yup.object({ id: yup.number().required() }) }, (_req, res) => {
      expectTypeOf(res.created({ data: { id: 1 } })).toEqualTypeOf<Promise<void> | undefined>()
      // @ts-expect-error id is required
      res.created({ data: {} })
    })
  })

  it('refuses a misspelt field, as it refuses it at run time', () => {
    // @ts-expect-error bodyy is not a route field
    handle({ bodyy: Body }, () => {})
    // @ts-expect-error responce is not a route field
    handle({ body: Body, responce: User }, () => {})
  })
})

describe('defineRoute()', () => {
  const createUser = defineRoute({
    body: Body,
    response: User,
    transform: (b) => ({ ...b, at: new Date() }),
    summary: 'Create a user',
  })

  it('keeps its schemas typed on the route it returns', () => {
    expectTypeOf(createUser.body).toEqualTypeOf<typeof Body>()
    expectTypeOf(createUser.response).toEqualTypeOf<typeof User>()
    expectTypeOf(createUser.summary).toEqualTypeOf<string | undefined>()
  })

  it('types every handler it is reused in', () => {
    handle(createUser, (req, res) => {
      expectTypeOf(req.body).toEqualTypeOf<{ name: string; at: Date }>()
      res.ok({ data: { id: 1, name: req.body.name } })
      // @ts-expect-error the response schema needs an id
      res.ok({ data: { name: req.body.name } })
    })
    handle(createUser, (req) => {
      expectTypeOf(req.body.at).toEqualTypeOf<Date>()
    })
    expectTypeOf(validate(createUser)).toBeFunction()
  })

  it('refuses a misspelt field', () => {
    // @ts-expect-error bodyy is not a route field
    defineRoute({ bodyy: Body })
    // @ts-expect-error querry is not a route field, beside a real one
    defineRoute({ body: Body, querry: Body })
  })
})

describe('validate()', () => {
  it('types transform from the body inline', () => {
    validate({
      body: v.object({ n: v.number() }),
      transform: (b) => {
        expectTypeOf(b).toEqualTypeOf<{ n: number }>()
        return b.n
      },
    })
    // @ts-expect-error validate() refuses a misspelt field
    validate({ parms: Body })
  })

  it('types a handler written apart through the route: RouteHandler<typeof route>', () => {
    const route = defineRoute({
      params: z.object({ id: z.coerce.number() }),
      query: z.object({ q: z.string() }),
      headers: z.object({ 'x-tenant': z.string() }),
      body: Body,
      response: User,
    })
    const handler: RouteHandler<typeof route> = async (req, res) => {
      expectTypeOf(req.params).toEqualTypeOf<{ id: number }>()
      expectTypeOf(req.query).toEqualTypeOf<{ q: string }>()
      expectTypeOf(req.headers['x-tenant']).toEqualTypeOf<string>()
      expectTypeOf(req.body).toEqualTypeOf<{ name: string }>()
      await res.ok({ data: { id: req.params.id, name: req.body.name } })
      // @ts-expect-error the response schema needs a name
      await res.ok({ data: { id: 1 } })
    }
    expectTypeOf(validate(route)).toBeFunction()
    handle(route, handler)
    expectTypeOf<TypedRequest<typeof route>['body']>().toEqualTypeOf<{ name: string }>()
    expectTypeOf<Parameters<TypedResponse<typeof route>['ok']>[0]['data']>().toEqualTypeOf<{
      id: number
      name: string
    }>()
  })
})

describe('the route type parameter', () => {
  it('is one bundle of slots; a route itself is one too', () => {
    const route = defineRoute({ body: Body, transform: (b) => b.name.length })
    expectTypeOf<RequestBodyOf<typeof route>>().toEqualTypeOf<number>()
    expectTypeOf<RequestBodyOf<{ body: typeof Body }>>().toEqualTypeOf<{ name: string }>()
    expectTypeOf<RequestBodyOf<{}>>().toBeAny()
    const handler: RouteHandler<typeof route> = (req) => {
      expectTypeOf(req.body).toEqualTypeOf<number>()
    }
    handle(route, handler)
  })

  it('may be written out: RouteDefinition<{ body: … }>', () => {
    const route: RouteDefinition<{ body: typeof Body; response: typeof User }> = {
      body: Body,
      response: User,
    }
    handle(route, (req, res) => {
      expectTypeOf(req.body).toEqualTypeOf<{ name: string }>()
      res.ok({ data: { id: 1, name: 'a' } })
    })
    expectTypeOf<TypedRequest<{ params: typeof User }>['params']>().toEqualTypeOf<{
      id: number
      name: string
    }>()
    expectTypeOf<TypedRequest<{}>['params']>().toEqualTypeOf<Request['params']>()
  })
})

describe('cookies', () => {
  it('types req.cookies and req.signedCookies from their schemas, output side', () => {
    const route = defineRoute({
      cookies: z.object({ theme: z.enum(['dark', 'light']), visits: z.coerce.number() }),
      signedCookies: v.object({
        session: v.pipe(
          v.string(),
          v.transform((s) => s.length),
        ),
      }),
    })
    handle(route, (req) => {
      expectTypeOf(req.cookies.theme).toEqualTypeOf<'dark' | 'light'>()
      expectTypeOf(req.cookies.visits).toEqualTypeOf<number>()
      expectTypeOf(req.signedCookies.session).toEqualTypeOf<number>()
    })
  })
})
