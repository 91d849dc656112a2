import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Express } from 'express'
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { configureLogger, errorHandler, handle, shapeguard } from '../../src/index.js'
import { hosts } from '../support/e2e.js'
import { importExample, markedBlock } from '../support/readme-example.js'

// docs/streaming.md's examples run as written, on Express 4 and 5: the token stream answers the
// bytes the guide shows, its client reads them back, and a token that breaks its schema ends the
// stream with the error event the guide shows.

beforeAll(() => {
  configureLogger({ silent: true })
})

const shown = (name: string) => markedBlock('output', name).code

describe.each(hosts)('%s', (host, express) => {
  const server = () => importExample<{ app: Express }>('streaming', host, 'export { app }\n')

  it('streaming-wire: the bytes of the token stream, the undeclared field stripped', async () => {
    const { app } = await server()
    const answer = await request(app).post('/chat').send({ prompt: 'Hello streams' })
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toBe('text/event-stream; charset=utf-8')
    expect(answer.text).toBe(shown('streaming-wire'))
    expect(answer.text).not.toContain('internal')
  })

  it('streaming-client: the client reads the stream back, typed and validated', async () => {
    const { app } = await server()
    const { ask } = await importExample<{ ask(base: string, prompt: string): Promise<string> }>(
      'streaming-client',
    )
    const listening: Server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s))
    })
    try {
      const { port } = listening.address() as AddressInfo
      expect(await ask(`http://127.0.0.1:${port}`, 'Hello typed streams')).toBe(
        'Hello typed streams',
      )
    } finally {
      listening.closeAllConnections()
      await new Promise((resolve) => listening.close(resolve))
    }
  })

  it('streaming-error: a token that breaks its schema ends the stream in the envelope', async () => {
    const app = express()
    app.use(shapeguard({ debug: false }))
    app.get(
      '/chat',
      ...handle({ events: { token: z.object({ text: z.string() }) } }, async (_req, res) => {
        const stream = res.sse()
        await stream.send('token', { text: 1 } as never).catch(() => {})
      }),
    )
    app.use(errorHandler())
    const answer = await request(app).get('/chat').set('x-request-id', 'req-7')
    expect(answer.status).toBe(200)
    expect(answer.text).toBe(shown('streaming-error'))
  })
})
