import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { errorHandler, notFoundHandler } from '../../../src/index.js'
import { configureLogger, logger, resetLogger } from '../../../src/runtime/logging/logger.js'
import { warnHandlerOrder } from '../../../src/runtime/router/warn-handler-order.js'
import { hosts } from '../../e2e/support.js'

let warn: ReturnType<typeof vi.fn>

beforeEach(() => {
  configureLogger({ silent: false })
  warn = vi.fn()
  vi.spyOn(logger, 'warn').mockImplementation(warn as never)
})

afterEach(() => {
  vi.restoreAllMocks()
  resetLogger()
})

describe.each(hosts)('warnHandlerOrder on %s', (_, express) => {
  it('walks an app once: a second call says nothing more', () => {
    const app = express()
    app.use(errorHandler())
    app.put('/items/:id', (_req, res) => res.end())
    warnHandlerOrder(app)
    warnHandlerOrder(app)
    expect(warn.mock.calls).toEqual([
      [
        'shapeguard: errorHandler() is mounted before the route PUT /items/:id: errors from there never reach it and Express answers them with its own HTML page; mount errorHandler() last',
      ],
    ])
  })

  it('says nothing of an app in the right order, nor of what is not an app', () => {
    const app = express()
    app.all('/any', (_req, res) => res.end())
    app.use(notFoundHandler(), errorHandler())
    for (const value of [app, undefined, null, 'app', {}, () => undefined]) warnHandlerOrder(value)
    expect(warn).not.toHaveBeenCalled()
  })
})
