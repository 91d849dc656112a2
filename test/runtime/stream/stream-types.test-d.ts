import { describe, expectTypeOf, it } from 'vitest'
import * as z from 'zod'
import { handle, type NdjsonStream, type SseStream } from '../../../src/index.js'

const events = { token: z.object({ text: z.string() }), done: z.object({ total: z.number() }) }

describe('typed streams', () => {
  it("types send() by the route's events: the name and each event's data", () => {
    handle({ events }, async (req, res) => {
      expectTypeOf(req.signal).toEqualTypeOf<AbortSignal>()
      expectTypeOf(req.lastEventId).toEqualTypeOf<string | undefined>()
      const stream = res.sse({ heartbeat: 1000 })
      expectTypeOf(stream).toEqualTypeOf<
        SseStream<{ token: { text: string }; done: { total: number } }>
      >()
      await stream.send('token', { text: 'a' }, { id: '1' })
      // @ts-expect-error a token's text is a string
      await stream.send('token', { text: 1 })
      // @ts-expect-error the route declares no such event
      await stream.send('other', { text: 'a' })
      // @ts-expect-error done takes its own data
      await stream.send('done', { text: 'a' })
    })
  })

  it("types res.ndjson() by the route's stream schema", () => {
    const Row = z.object({ id: z.number() })
    handle({ stream: Row }, async (_req, res) => {
      expectTypeOf(res.ndjson()).toEqualTypeOf<NdjsonStream<{ id: number }>>()
      await res.ndjson([{ id: 1 }])
      // @ts-expect-error an id is a number
      await res.ndjson([{ id: 'a' }])
    })
  })
})
