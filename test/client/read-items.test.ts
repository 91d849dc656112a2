import type { ServerResponse } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { readItems, StreamError } from '../../src/client.js'
import { AppError, errorHandler, shapeguard } from '../../src/index.js'
import { hosts } from '../support/e2e.js'
import {
  closed,
  collect,
  type Listening,
  listen,
  ndjsonHead,
  rejection,
  tick,
} from './stream-server.js'

const Row = z.object({ id: z.number(), name: z.string() })

describe.each(hosts)('readItems on %s', (_, express) => {
  let server: Listening | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })
  const start = async (setup: (app: ReturnType<typeof express>) => void) => {
    const app = express()
    setup(app)
    server = await listen(app)
    return server.url
  }

  it('yields one JSON value a line, asking for application/x-ndjson', async () => {
    const accepts: unknown[] = []
    const url = await start((app) =>
      app.get('/export', async (req, res) => {
        accepts.push(req.headers.accept)
        ndjsonHead(res)
        res.write('{"id":1,"name":"a"}\n{"id":2,')
        await tick(5)
        res.write('"name":"b"}\r\n\n')
        res.end('{"id":3,"name":"c"}')
      }),
    )
    const rows = await collect(readItems(`${url}/export`, { item: Row }))
    expect(rows).toEqual([
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
      { id: 3, name: 'c' },
    ])
    expect(accepts).toEqual(['application/x-ndjson'])
  })

  it('throws ITEM_INVALID naming the path, never the value', async () => {
    const url = await start((app) =>
      app.get('/export', (_req, res) => {
        ndjsonHead(res)
        res.end('{"id":1,"name":"a"}\n{"id":"SECRET","name":"b"}\n')
      }),
    )
    const error = await rejection(collect(readItems(`${url}/export`, { item: Row })))
    expect(error).toMatchObject({ code: 'ITEM_INVALID', path: 'id' })
    expect((error as Error).message).toBe('a stream item does not match its schema at id')
  })

  it("throws the server's final error line with its code", async () => {
    const line = {
      success: false,
      message: 'Export failed',
      error: { code: 'EXPORT_FAILED', message: 'Export failed', details: null },
    }
    const url = await start((app) =>
      app.get('/export', (_req, res) => {
        ndjsonHead(res)
        res.end(`{"id":1,"name":"a"}\n${JSON.stringify(line)}\n`)
      }),
    )
    for (const options of [{}, { item: Row }]) {
      const seen: unknown[] = []
      const error = await rejection(
        (async () => {
          for await (const row of readItems(`${url}/export`, options)) seen.push(row)
        })(),
      )
      expect(seen).toEqual([{ id: 1, name: 'a' }])
      expect(error).toBeInstanceOf(StreamError)
      expect(error).toMatchObject({ code: 'EXPORT_FAILED', message: 'Export failed', body: line })
    }
  })

  it("takes an error-shaped line for the server's error only as the last line, whatever the schema", async () => {
    const failedRow = { error: { code: 'ROW_FAILED', message: 'row 2 failed' } }
    const end = { error: { code: 'EXPORT_FAILED', message: 'Export failed' } }
    const url = await start((app) =>
      app.get('/export', (_req, res) => {
        res.setHeader('x-request-id', 'req-9')
        ndjsonHead(res)
        res.end(`${JSON.stringify(failedRow)}\n{"id":1}\n${JSON.stringify(end)}\n`)
      }),
    )
    // A schema that takes anything: the last line is still the server's error.
    for (const options of [{}, { item: z.record(z.string(), z.unknown()) }]) {
      const seen: unknown[] = []
      const error = await rejection(
        (async () => {
          for await (const row of readItems(`${url}/export`, options)) seen.push(row)
        })(),
      )
      expect(seen).toEqual([failedRow, { id: 1 }])
      expect(error).toMatchObject({ code: 'EXPORT_FAILED', requestId: 'req-9' })
    }
  })

  it("throws a non-2xx answer with the envelope's code", async () => {
    const url = await start((app) => {
      app.use(shapeguard())
      app.get('/export', () => {
        throw AppError.notFound('No such export')
      })
      app.use(errorHandler())
    })
    const error = await rejection(collect(readItems(`${url}/export`)))
    expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404, body: { success: false } })
  })

  it('throws STREAM_MALFORMED for a line that is not JSON, and STREAM_CONTENT_TYPE for another type', async () => {
    const url = await start((app) => {
      app.get('/bad', (_req, res) => {
        ndjsonHead(res)
        res.end('{"id":1}\nnot json\n')
      })
      app.get('/text', (_req, res) => res.type('text').send('{"id":1}\n'))
    })
    const malformed = await rejection(collect(readItems(`${url}/bad`)))
    expect(malformed).toMatchObject({ code: 'STREAM_MALFORMED' })
    expect((malformed as Error).message).not.toContain('not json')
    const wrongType = await rejection(collect(readItems(`${url}/text`)))
    expect(wrongType).toMatchObject({ code: 'STREAM_CONTENT_TYPE' })
  })

  it('throws STREAM_DISCONNECTED when the connection drops, without reconnecting', async () => {
    let requests = 0
    const url = await start((app) =>
      app.get('/export', (_req, res) => {
        requests++
        ndjsonHead(res)
        res.write('{"id":1,"name":"a"}\n{"id":2', () => res.socket?.destroy())
      }),
    )
    const seen: unknown[] = []
    const error = await rejection(
      (async () => {
        for await (const row of readItems(`${url}/export`)) seen.push(row)
      })(),
    )
    expect(seen).toEqual([{ id: 1, name: 'a' }])
    expect(error).toMatchObject({ code: 'STREAM_DISCONNECTED' })
    expect(requests).toBe(1)
  })

  it('reads a Response already fetched', async () => {
    const url = await start((app) =>
      app.get('/export', (_req, res) => {
        ndjsonHead(res)
        res.end('{"id":1,"name":"a"}\n')
      }),
    )
    expect(await collect(readItems(await fetch(`${url}/export`), { item: Row }))).toEqual([
      { id: 1, name: 'a' },
    ])
  })

  describe('stopping', () => {
    let open: ServerResponse | undefined
    const endless = (app: ReturnType<typeof express>) =>
      app.get('/feed', (_req, res) => {
        open = res
        ndjsonHead(res)
        let n = 0
        const timer = setInterval(() => res.write(`${JSON.stringify({ id: n++, name: 'x' })}\n`), 5)
        res.on('close', () => clearInterval(timer))
      })

    it('leaving the loop closes the connection: the server sees the client go', async () => {
      const url = await start(endless)
      const seen: unknown[] = []
      for await (const row of readItems(`${url}/feed`, { item: Row })) {
        seen.push(row)
        if (seen.length === 3) break
      }
      await closed(open!)
      expect(seen).toHaveLength(3)
    })

    it('aborting the signal stops the iteration with its reason and closes the connection', async () => {
      const url = await start(endless)
      const controller = new AbortController()
      const error = await rejection(
        (async () => {
          for await (const _ of readItems(`${url}/feed`, { signal: controller.signal }))
            controller.abort()
        })(),
      )
      expect((error as Error).name).toBe('AbortError')
      await closed(open!)
    })

    it('a server that never sends a byte is stopped by a timeout signal', async () => {
      const url = await start((app) =>
        app.get('/feed', (_req, res) => {
          open = res
          ndjsonHead(res)
        }),
      )
      const error = await rejection(
        collect(readItems(`${url}/feed`, { signal: AbortSignal.timeout(100) })),
      )
      expect((error as Error).name).toBe('TimeoutError')
      await closed(open!)
    })
  })
})
