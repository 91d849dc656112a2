import * as v from 'valibot'
import { describe, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { type EventsOf, readEvents, readItems, type StreamEvent } from '../../src/client.js'
import { defineRoute } from '../../src/index.js'

const chat = defineRoute({
  events: {
    token: z.object({ text: z.string() }),
    done: z.object({ tokens: z.string().transform(Number) }),
  },
})

type ChatEvent =
  | { readonly event: 'token'; readonly data: { text: string }; readonly id: string }
  | { readonly event: 'done'; readonly data: { tokens: number }; readonly id: string }

type Element<I> = I extends AsyncIterable<infer T> ? T : never

describe('readEvents', () => {
  const typed = readEvents<typeof chat>('/chat')

  it('is typed by the route: a union discriminated by event, data as the schema outputs it', () => {
    expectTypeOf<Element<typeof typed>>().toEqualTypeOf<ChatEvent>()
    expectTypeOf<EventsOf<typeof chat>>().toEqualTypeOf<{
      token: { text: string }
      done: { tokens: number }
    }>()
  })

  it('is typed by the schemas it validates with', async () => {
    for await (const e of readEvents('/chat', { events: chat.events })) {
      expectTypeOf(e).toEqualTypeOf<ChatEvent>()
      if (e.event === 'token') expectTypeOf(e.data).toEqualTypeOf<{ text: string }>()
      else expectTypeOf(e.data.tokens).toEqualTypeOf<number>()
    }
    const valibot = { tick: v.object({ at: v.pipe(v.string(), v.transform(Date.parse)) }) }
    for await (const e of readEvents('/clock', { events: valibot }))
      expectTypeOf(e.data).toEqualTypeOf<{ at: number }>()
  })

  it('is typed by a map of event name to data type, as written from a generated document', async () => {
    // openapi-typescript's `components['schemas']`, for one.
    interface components {
      schemas: { Token: { text: string }; Usage: { tokens: number } }
    }
    type Chat = { token: components['schemas']['Token']; done: components['schemas']['Usage'] }
    for await (const e of readEvents<Chat>('/chat')) {
      if (e.event === 'done') expectTypeOf(e.data).toEqualTypeOf<{ tokens: number }>()
    }
    // The schemas given must produce the map's types.
    readEvents<Chat>('/chat', {
      // @ts-expect-error: token's schema outputs a number
      events: { token: z.number(), done: z.object({ tokens: z.number() }) },
    })
  })

  it('without a type, yields any event name and unknown data', () => {
    const untyped = readEvents('/feed')
    expectTypeOf<Element<typeof untyped>>().toEqualTypeOf<{
      readonly event: string
      readonly data: unknown
      readonly id: string
    }>()
    expectTypeOf<StreamEvent>().toEqualTypeOf<Element<typeof untyped>>()
  })
})

describe('readItems', () => {
  const exportRoute = defineRoute({ stream: z.object({ id: z.string().transform(Number) }) })

  it('is typed by the route, the item schema, or the item type', async () => {
    const typed = readItems<typeof exportRoute>('/export')
    expectTypeOf<Element<typeof typed>>().toEqualTypeOf<{ id: number }>()
    for await (const row of readItems('/export', { item: exportRoute.stream }))
      expectTypeOf(row).toEqualTypeOf<{ id: number }>()
    for await (const row of readItems<{ id: string }>('/export'))
      expectTypeOf(row).toEqualTypeOf<{ id: string }>()
    for await (const row of readItems('/export')) expectTypeOf(row).toBeUnknown()
  })
})
