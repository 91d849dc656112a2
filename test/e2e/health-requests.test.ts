import { once } from 'node:events'
import { request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Request } from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import { configureLogger, health, shapeguard } from '../../src/index.js'
import { isHealthRequest } from '../../src/runtime/lifecycle/health-requests.js'
import { type Express, hosts } from '../support/e2e.js'

configureLogger({ silent: true })

const servers: Server[] = []
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    server.close()
  }
})

/**
 * An app that records, before routing, whether each request is a health request (as load
 * shedding asks), then mounts `mount(app)`; anything not answered gets 404 `not health`.
 */
async function probe(express: Express, mount: (app: ReturnType<Express>) => void) {
  const app = express()
  const seen: boolean[] = []
  app.use((req, _res, next) => {
    seen.push(isHealthRequest(req))
    next()
  })
  app.use(shapeguard({ debug: false }))
  mount(app)
  app.use((_req, res) => {
    res.status(404).send('not health')
  })
  const server = app.listen(0, '127.0.0.1')
  servers.push(server)
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  // node:http sends the path exactly as written: no dot-segment or case normalisation.
  return (path: string, method = 'GET') =>
    new Promise<{ health: boolean; answeredByHealth: boolean }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, method }, (res) => {
        let text = ''
        res.on('data', (chunk) => {
          text += chunk
        })
        res.on('end', () =>
          resolve({
            health: seen.at(-1) as boolean,
            answeredByHealth: res.statusCode === 200 && text.includes('"status":"ok"'),
          }),
        )
      })
      req.on('error', reject)
      req.end()
    })
}

const hostile = [
  '/HEALTHZ',
  '/Healthz',
  '/healthz//',
  '/healthz/x',
  '/healthz/../x',
  '/healthz/..%2Fx',
  '/healthz%2F..%2Fx',
  '/healthz%2f',
  '/health%7Az',
  '/%2Fhealthz',
  '//healthz',
  '/./healthz',
  '/healthz%00',
  '/healthz;x',
  '/healthzz',
  '/x/healthz',
  '/readyz.json',
]

describe.each(hosts)('isHealthRequest on %s', (_, express) => {
  it('is true for the liveness and readiness paths on GET and HEAD, one trailing slash allowed', async () => {
    const send = await probe(express, (app) => app.use(health()))
    for (const path of ['/healthz', '/readyz', '/healthz/', '/readyz?full=1']) {
      expect(await send(path), path).toEqual({ health: true, answeredByHealth: true })
    }
    expect((await send('/healthz', 'HEAD')).health).toBe(true)
    expect((await send('/healthz', 'POST')).health).toBe(false)
    expect((await send('/items')).health).toBe(false)
  })

  it('is false for every other spelling, and true only where health() answers', async () => {
    const send = await probe(express, (app) => app.use(health()))
    for (const path of hostile) {
      const answer = await send(path)
      expect(answer.health, path).toBe(false)
      expect(answer.health && !answer.answeredByHealth, path).toBe(false)
    }
  })

  it('includes mount paths, nested routers and custom paths', async () => {
    const send = await probe(express, (app) => {
      const api = express.Router()
      api.use('/ops', health({ paths: { liveness: '/live', readiness: '/ready' } }))
      app.use('/api', api)
    })
    expect(await send('/api/ops/live')).toEqual({ health: true, answeredByHealth: true })
    expect(await send('/api/ops/ready/')).toEqual({ health: true, answeredByHealth: true })
    for (const path of ['/live', '/ops/live', '/api/live', '/API/ops/live', '/api/ops/healthz']) {
      expect((await send(path)).health, path).toBe(false)
    }
  })

  it('sees a health() mounted after its first answer', async () => {
    let late: ReturnType<Express> | undefined
    const send = await probe(express, (app) => {
      late = app
    })
    expect((await send('/healthz')).health).toBe(false)
    late!.use('/late', health())
    expect((await send('/late/healthz')).health).toBe(true)
  })

  it('answers for a request not yet routed when given the app', () => {
    const app = express()
    app.use('/ops', health())
    const raw = (url: string, method = 'GET') => ({ method, url }) as Request
    expect(isHealthRequest(raw('/ops/readyz'), app)).toBe(true)
    expect(isHealthRequest(raw('/ops/readyz', 'DELETE'), app)).toBe(false)
    expect(isHealthRequest(raw('/readyz'), app)).toBe(false)
    expect(isHealthRequest(raw('/ops/readyz'))).toBe(false)
  })
})
