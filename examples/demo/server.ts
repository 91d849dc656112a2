import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serverUrl } from './server-url.js'

// OTEL=1: traced with OpenTelemetry, spans printed to the console; set up before the app (and
// so Express) is loaded.
if (process.env.OTEL === '1') (await import('./tracing.js')).startTracing()
const { createApp, demoErrors, demoUrls } = await import('./app.js')

const port = Number(process.env.PORT ?? 3000)
const host = process.env.HOST ?? 'localhost'
// The app is built once the port is known (PORT=0 picks one): its OpenAPI document, and so the
// docs pages' try-it-out, their CSP and the exported collections, name where it listens.
const server = createServer()
server.listen(port, host, () => {
  const base = serverUrl(host, (server.address() as AddressInfo).port)
  server.on('request', createApp(base))
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

// Ctrl-C or a SIGTERM stops the demo: requests in flight get a second to finish, idle keep-alive
// connections (a browser holds them open for seconds) are closed instead of being waited for,
// and so, after that second, is a connection that never sent a request (Node 22 counts it as
// neither idle nor busy, and no server timeout ends it sooner than a minute).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close(() => process.exit(0))
    server.closeIdleConnections()
    setTimeout(() => server.closeAllConnections(), 1000).unref()
  })
}
