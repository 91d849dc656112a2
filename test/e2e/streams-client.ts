import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach } from 'vitest'
import { errorHandler, type ShapeguardConfig, shapeguard } from '../../src/index.js'
import { captureLogger, type Express } from '../support/e2e.js'

/** An app listening on 127.0.0.1 for a test; `close()` drops its connections and stops it. */
export async function listen(app: {
  listen(port: number, host: string): Server
}): Promise<{ port: number; server: Server; close(): Promise<void> }> {
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as AddressInfo
  return {
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * The stream tests' app on Express `express`: shapeguard() logging every request to a captured
 * logger (over `config`), the routes `mount` adds, errorHandler(); listening until the test ends.
 */
export function useStreamApps() {
  const closers: (() => Promise<void>)[] = []
  afterEach(async () => {
    for (const close of closers.splice(0)) await close()
  })
  return async function serve(
    express: Express,
    mount: (app: ReturnType<Express>) => void,
    config: ShapeguardConfig = {},
  ) {
    const app = express()
    const logger = captureLogger()
    app.use(shapeguard({ logger: { instance: logger, logAllRequests: true }, ...config }))
    mount(app)
    app.use(errorHandler())
    const server = await listen(app)
    closers.push(server.close)
    return { port: server.port, logger, server: server.server }
  }
}

export interface StreamAnswer {
  status: number
  headers: IncomingHttpHeaders
  text: string
}

/**
 * GET `path` and read the body as text until the server ends it, or until `until(text)` holds
 * (then the client goes, as a browser tab closing); fails after `ms`.
 */
export function readStream(
  port: number,
  path: string,
  options: {
    headers?: Record<string, string>
    until?: (text: string) => boolean
    ms?: number
  } = {},
): Promise<StreamAnswer> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      req.destroy()
      reject(new Error(`no end of ${path} within ${options.ms ?? 5000} ms`))
    }, options.ms ?? 5000)
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: options.headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      const done = () => {
        clearTimeout(timer)
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text })
      }
      res.on('data', (chunk: string) => {
        text += chunk
        if (options.until?.(text)) {
          req.destroy()
          done()
        }
      })
      res.on('end', done)
      res.on('error', () => {})
    })
    req.on('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
    req.end()
  })
}

/** Waits, up to two seconds, for `done()` to hold. */
export async function until(done: () => boolean): Promise<boolean> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10))
  return done()
}
