import { createApp, demoUrls } from './app.js'

const port = Number(process.env.PORT ?? 3000)
const server = createApp().listen(port, () => {
  const base = `http://localhost:${port}`
  process.stdout.write(`shapeguard demo listening on ${base}\n`)
  for (const url of demoUrls) process.stdout.write(`  ${base}${url}\n`)
})

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => server.close(() => process.exit(0)))
}
