import express from 'express'

/** The demo API: every shapeguard feature that works shows itself here. */
export function createApp() {
  const app = express()
  app.use(express.json())

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' })
  })

  return app
}

/** What the demo prints on start: one line per URL worth opening. */
export const demoUrls = ['/health'] as const
