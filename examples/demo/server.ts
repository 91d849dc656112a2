import { createApp, demoErrors, demoUrls } from './app.js'

const port = Number(process.env.PORT ?? 3000)
const server = createApp().listen(port, () => {
  const base = `http://localhost:${port}`
  process.stdout.write(`shapeguard demo listening on ${base}\n`)
  for (const url of demoUrls) process.stdout.write(`  ${base}${url}\n`)
  process.stdout.write('\nerror paths:\n')
  for (const e of demoErrors) {
    const body =
      'body' in e && e.body.length < 60
        ? ` -H 'Content-Type: application/json' -d '${e.body}'`
        : 'body' in e
          ? ` -H 'Content-Type: application/json' -d '<${e.body.length} bytes>'`
          : ''
    process.stdout.write(
      `  ${e.status} ${e.shows}\n     curl -i -X ${e.method}${body} '${base}${e.url}'\n`,
    )
  }
})

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => server.close(() => process.exit(0)))
}
