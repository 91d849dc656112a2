import type { RequestHandler } from 'express'
import {
  errorHandler,
  rawBody,
  shapeguard,
  type VerifyWebhookOptions,
  verifyWebhook,
} from '../../src/index.js'
import type { captureLogger, Express } from './e2e.js'

/** How a test app keeps the raw bytes. */
export type BodySetup = 'raw' | 'json-verify' | 'urlencoded-verify' | 'json' | 'none'

function parser(express: Express, setup: BodySetup): RequestHandler[] {
  switch (setup) {
    case 'raw':
      return [express.raw({ type: '*/*' })]
    case 'json-verify':
      return [express.json({ verify: rawBody() })]
    case 'urlencoded-verify':
      return [express.urlencoded({ extended: false, verify: rawBody() })]
    case 'json':
      return [express.json()]
    case 'none':
      return []
  }
}

/**
 * An app with one webhook route, `POST /hook` (and GET), answering `{ ok, body }` after
 * verification: `body` is `'buffer'` when req.body holds the raw bytes, else req.body itself.
 */
export function webhookApp(
  express: Express,
  options: VerifyWebhookOptions,
  setup: BodySetup = 'raw',
  extra: {
    configure?: (app: ReturnType<Express>) => void
    /** Mounts shapeguard() with this logger instance first, so its records can be read. */
    logger?: ReturnType<typeof captureLogger>
  } = {},
) {
  const app = express()
  if (extra.logger) app.use(shapeguard({ logger: { instance: extra.logger } }))
  extra.configure?.(app)
  const handler: RequestHandler = (req, res) => {
    res.json({ ok: true, body: Buffer.isBuffer(req.body) ? 'buffer' : (req.body ?? null) })
  }
  app.all('/hook', ...parser(express, setup), verifyWebhook(options), handler)
  app.use(errorHandler({ debug: true }))
  return app
}
