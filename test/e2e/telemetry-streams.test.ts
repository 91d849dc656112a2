import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { errorHandler, handle, shapeguard } from '../../src/index.js'
import { hosts } from '../support/e2e.js'
import { useInstrumentedSdk } from '../support/otel-instrument.js'

// A stream's figures reach the request's server span (the HTTP instrumentation's) before it
// ends: events and body bytes, for Server-Sent Events and NDJSON, on Express 4 and 5.

const sdk = useInstrumentedSdk()
const Token = z.object({ text: z.string() })

describe.each(hosts)('%s', (_, express) => {
  it('puts shapeguard.stream.events and .bytes on the server span', async () => {
    await sdk().reset()
    const app = express()
    app.use(shapeguard())
    app.get(
      '/events',
      ...handle({ events: { token: Token } }, async (_req, res) => {
        const stream = res.sse({ heartbeat: false })
        for (const text of ['a', 'bé', 'c']) await stream.send('token', { text })
        await stream.close()
      }),
    )
    app.get(
      '/rows',
      ...handle({ stream: Token }, async (_req, res) => {
        await res.ndjson([{ text: 'x' }, { text: 'y' }])
      }),
    )
    app.use(errorHandler())
    const sse = await request(app).get('/events')
    const rows = await request(app).get('/rows')
    const spans = await sdk().spans()
    const figures = (path: string) => {
      const span = spans.find((s) => s.attributes['url.path'] === path)
      return [
        span?.attributes['shapeguard.stream.events'],
        span?.attributes['shapeguard.stream.bytes'],
      ]
    }
    expect(figures('/events')).toEqual([3, Buffer.byteLength(sse.text)])
    expect(figures('/rows')).toEqual([2, Buffer.byteLength(rows.text)])
  })
})
