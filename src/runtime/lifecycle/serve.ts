import { createServer, type RequestListener, type Server } from 'node:http'
import { constants } from 'node:os'
import { checkFunction, checkInteger, checkString, subject } from '../../shared/check-option.js'
import { optionError } from '../../shared/error-codes.js'
import { type CloseOptions, resolveClose } from './close-gracefully.js'
import { type Served, shutdown, watch } from './shutdown-signals.js'

/** Options of `serve()`: where it listens, and how it shuts down. */
export interface ServeOptions extends CloseOptions {
  /** The port to listen on (0: any free one). @default `process.env.PORT`, else 3000 */
  port?: number
  /** The address to listen on. @default every address (Node's default) */
  host?: string
  /** The signals that shut the process down; `[]` leaves signals alone. @default ['SIGTERM', 'SIGINT'] */
  signals?: readonly NodeJS.Signals[]
  /**
   * Runs once the server has drained, before the process exits (or `shutdown()` resolves):
   * close what the app opened there (a database pool, the Redis client of `redisStore()`).
   */
  onShutdown?: () => unknown
  /**
   * How long the server keeps serving after the signal while `/readyz` answers 503, before it
   * stops accepting: the time a load balancer that reads readiness needs to stop sending (its
   * interval × unhealthy threshold). Under Kubernetes a `preStop` sleep does this instead. @default 0
   */
  drainDelayMs?: number
}

/** The listening server `serve()` answers with. */
export interface ServedServer extends Server {
  /** Drains the server as a signal would and runs `onShutdown`, without exiting the process. */
  shutdown(): Promise<void>
}

const serveKeys = ['port', 'host', 'signals', 'onShutdown', 'drainDelayMs', 'shutdownMs', 'logger']
const defaultSignals: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT']

function defaultPort(): number {
  const env = process.env.PORT
  if (env === undefined || env === '') return 3000
  const port = Number(env)
  if (!/^\d+$/.test(env) || port > 65_535) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      'shapeguard: serve(): the PORT environment variable must be a port number from 0 to 65535',
    )
  }
  return port
}

function checkSignals(given: unknown, name: string): readonly NodeJS.Signals[] | undefined {
  if (given === undefined) return undefined
  if (
    !Array.isArray(given) ||
    !given.every(
      (s) => typeof s === 'string' && s in constants.signals && s !== 'SIGKILL' && s !== 'SIGSTOP',
    )
  ) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `shapeguard: ${subject(name)} must be an array of signal names, e.g. ['SIGTERM', 'SIGINT']`,
    )
  }
  return [...new Set(given as NodeJS.Signals[])]
}

function listen(server: Server, port: number, host: string | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen({ port, host }, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

/**
 * Starts `app` on an HTTP server and shuts it down gracefully on SIGTERM or SIGINT: the server
 * drains as `closeGracefully()` does (new requests 503 SHUTTING_DOWN, those in flight finish
 * within `shutdownMs`), `onShutdown` runs, and the process exits with `process.exitCode` (0
 * unless your code set it). A second signal during the drain exits at once with 128 + the
 * signal's number. Answers the listening server; its `shutdown()` drains without exiting.
 * Rejects when the server cannot listen (EADDRINUSE).
 * @param options `port` (default `PORT`, else 3000), `host`, `shutdownMs` (default 10000),
 * `signals` (default SIGTERM and SIGINT), `onShutdown`, `drainDelayMs` (default 0), `logger`
 * @example const server = await serve(app, { port: 8080, onShutdown: () => pool.end() })
 */
export async function serve(app: RequestListener, options?: ServeOptions): Promise<ServedServer> {
  const close = resolveClose(options, 'serve()', serveKeys)
  if (typeof app !== 'function') {
    throw optionError(
      'SG_ERR_NOT_AN_APP',
      'shapeguard: serve(): app must be an Express app or a request listener',
    )
  }
  const port = checkInteger(options?.port, 'serve(): port', 0, 65_535) ?? defaultPort()
  const host = checkString(options?.host, 'serve(): host')
  const signals = checkSignals(options?.signals, 'serve(): signals') ?? defaultSignals
  const onShutdown = checkFunction(options?.onShutdown, 'serve(): onShutdown')
  const drainDelayMs = checkInteger(options?.drainDelayMs, 'serve(): drainDelayMs', 0) ?? 0
  const server = createServer(app) as ServedServer
  await listen(server, port, host)
  const entry: Served = { server, close, signals, onShutdown, drainDelayMs, done: undefined }
  server.shutdown = () => shutdown(entry)
  watch(entry)
  return server
}
