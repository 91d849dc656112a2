import { describe, expect, it } from 'vitest'
import { traceRoutes } from '../../../src/runtime/router/trace-routes.js'
import { hosts } from '../../support/e2e.js'

describe.each(hosts)('traceRoutes on %s', (_, express) => {
  it("wraps each new route layer's handle, a request handler still (three parameters)", () => {
    const router = express.Router()
    traceRoutes(router as never)
    const route = router.route('/items/:id')
    const layer = router.stack[0] as unknown as {
      route: unknown
      handle: (...a: unknown[]) => void
    }
    expect(layer.route).toBe(route)
    expect(layer.handle.name).toBe('traced')
    expect(layer.handle.length).toBe(3)
    router.get('/other', () => {})
    expect((router.stack[1] as unknown as { handle: { name: string } }).handle.name).toBe('traced')
  })

  it('dispatches to the route it wraps', () => {
    const router = express.Router()
    traceRoutes(router as never)
    const seen: string[] = []
    router.get('/items/:id', (req, _res, next) => {
      seen.push(req.params.id!)
      next()
    })
    const layer = router.stack[0] as unknown as { handle: (...a: unknown[]) => void }
    const req = { method: 'GET', url: '/items/7', params: { id: '7' }, app: {} }
    let done = false
    layer.handle(req, {}, () => {
      done = true
    })
    expect(seen).toEqual(['7'])
    expect(done).toBe(true)
  })
})
