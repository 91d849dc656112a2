import { afterEach, describe, expect, it, vi } from 'vitest'
import { errorHandler, shapeguard } from '../../src/index.js'
import { stopLoadSampler } from '../../src/runtime/lifecycle/load-sampler.js'
import { captureLogger, hosts } from '../support/e2e.js'
import { listen } from '../support/streams.js'

// Until health() lands (another part of issue 47), `isHealthRequest` is a stub that says no:
// here it says yes for /healthz, to prove that shedding asks it, lets such a request through, and
// asks only while shedding. test/e2e/overload.test.ts has the same case against the real health().
const asked = vi.hoisted(() => ({ count: 0 }))
vi.mock('../../src/runtime/lifecycle/health-requests.js', () => ({
  isHealthRequest: (req: { path: string }) => {
    asked.count++
    return req.path === '/healthz'
  },
}))

afterEach(() => {
  stopLoadSampler()
  asked.count = 0
})

describe.each(hosts)('%s', (_, express) => {
  it.each([
    ['past its limits', 1, 503],
    ['within its limits', Number.MAX_SAFE_INTEGER, 200],
  ])('lets a health request through %s, and asks only while shedding', async (_, max, work) => {
    const a = express()
    a.use(
      shapeguard({
        debug: false,
        logger: { instance: captureLogger() },
        overload: { maxHeapUsedBytes: max },
      }),
    )
    a.get('/healthz', (_req, res) => res.ok({ data: { live: true } }))
    a.get('/work', (_req, res) => res.ok({ data: {} }))
    a.use(errorHandler())
    const server = await listen(a)
    try {
      const health = await fetch(`http://127.0.0.1:${server.port}/healthz`)
      expect(health.status).toBe(200)
      expect(await health.json()).toMatchObject({ data: { live: true } })
      const other = await fetch(`http://127.0.0.1:${server.port}/work`)
      expect(other.status).toBe(work)
      expect(asked.count).toBe(work === 503 ? 2 : 0)
    } finally {
      await server.close()
    }
  })
})
