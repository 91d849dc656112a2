import express, { type ErrorRequestHandler, type Express } from 'express'
import { peekContext } from '../../src/runtime/core/context.js'
import type { LoggerOptions } from '../../src/runtime/logging/options.js'
import { requestLogger } from '../../src/runtime/logging/request-logger.js'
import type { BackendDeps } from '../../src/runtime/logging/resolve-backend.js'
import { arrived } from './e2e.js'

export const ID = 'req_0190a1b2c3d4e5f6a7b8c9d0'

/** An AppError look-alike: the request logger reads errors duck-typed. */
export class FakeAppError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly statusCode: number,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}

/** What errorHandler() does with the slot: hand the error over instead of logging it. */
export const handOver: ErrorRequestHandler = (err, _req, res, _next) => {
  const error =
    err instanceof FakeAppError
      ? err
      : new FakeAppError('INTERNAL_ERROR', 'Something went wrong', 500, { cause: err })
  const slot = peekContext(res)?.log
  if (slot) {
    slot.error = error
    slot.cause = error === err ? undefined : err
  }
  res
    .status(error.statusCode)
    .json({ success: false, error: { code: error.code, message: error.message } })
}

/** A small app: request IDs, JSON bodies, the request logger, a mounted router, an error handler. */
export function makeApp(
  options: LoggerOptions | undefined,
  deps: BackendDeps,
  { debug = true, id = ID as string | undefined } = {},
): Express {
  const app = express()
  app.set('trust proxy', true)
  app.use((req, _res, next) => {
    ;(req as { id?: string }).id = id ?? ''
    next()
  })
  app.use(express.json())
  app.use(requestLogger(options, debug, deps))
  const users = express.Router()
  users.get('/:id', (req, res) => {
    res.json({ success: true, data: { id: req.params.id, token: 'tok' } })
  })
  users.post('/', (req, res) => {
    res.status(201).json({ success: true, data: { name: req.body?.name } })
  })
  users.delete('/:id', () => {
    throw new FakeAppError('NOT_FOUND', 'User not found', 404)
  })
  app.use('/users', users)
  app.get('/crash', () => {
    throw new TypeError('x is not a function', { cause: new Error('root cause') })
  })
  app.get('/slow', async (_req, res) => {
    await new Promise((resolve) => setTimeout(resolve, 40))
    res.json({ ok: true })
  })
  // Never answers; tells `abandon()` it has the request.
  app.get('/hang', (req) => arrived(req))
  app.use(handOver)
  return app
}
