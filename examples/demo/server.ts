import type { RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from 'shapeguard'
import { serverUrl } from './server-url.js'

// OTEL=1: traced with OpenTelemetry, spans printed to the console; set up before the app (and
// so Express) is loaded.
if (process.env.OTEL === '1') (await import('./tracing.js')).startTracing()
const { createApp, demoErrors, demoUrls } = await import('./app.js')

const port = Number(process.env.PORT ?? 3000)
const host = process.env.HOST ?? 'localhost'
// The app is built once the port is known (PORT=0 picks one): its OpenAPI document, and so the
// docs pages' try-it-out, their CSP and the exported collections, name where it listens. It is
// in place before the first request is read: serve() resolves before any I/O.
// Ctrl-C or a SIGTERM drains the demo: requests in flight get a second to finish, new ones on a
// kept-alive connection are answered 503 SHUTTING_DOWN, idle connections (a browser holds them
// open for seconds) and those that never sent a request are closed at once, then it exits.
let app: RequestListener | undefined
const server = await serve((req, res) => app?.(req, res), { port, host, shutdownMs: 1000 })
const base = serverUrl(host, (server.address() as AddressInfo).port)
app = createApp(base)
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
