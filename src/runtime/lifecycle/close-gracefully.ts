import type { Server } from 'node:http'
import { checkInteger, checkOptionalOptions } from '../../shared/check-option.js'
import { optionError } from '../../shared/error-codes.js'
import { flushLogs } from '../logging/flush-logs.js'
import { logger as sharedLogger } from '../logging/logger.js'
import type { Logger } from '../logging/types.js'
import { Drain } from './drain.js'
import { markDraining } from './drain-state.js'

/** Options of `closeGracefully()`. */
export interface CloseOptions {
  /**
   * How long the requests in flight may take to finish, in milliseconds; then their `req.signal`
   * aborts, an open stream ends with a SHUTTING_DOWN error event, and the connections close.
   * @default 10000
   */
  shutdownMs?: number
  /** Where the shutdown's lines go. @default shapeguard's `logger` */
  logger?: Logger
}

/** `CloseOptions` with every default applied. */
export interface ResolvedClose {
  readonly shutdownMs: number
  readonly logger: Logger
}

const closeKeys = ['shutdownMs', 'logger']
const logMethods = ['debug', 'info', 'warn', 'error'] as const
const DEFAULT_SHUTDOWN_MS = 10_000
// Once the signals have aborted: how long handlers that honour them have to answer, and an
// answer or a stream's final event to reach the socket, before the connections are closed.
const ABORT_GRACE_MS = 500
// How long the server may take to report its connections closed, and the logs to flush.
const CLOSE_MS = 1000
const FLUSH_MS = 1000

/** Checks `closeGracefully()`'s (or `serve()`'s) options; throws naming `<where>: <option>`. */
export function resolveClose(
  options: CloseOptions | undefined,
  where: string,
  known: readonly string[] = closeKeys,
): ResolvedClose {
  checkOptionalOptions(options, known, where)
  const shutdownMs = checkInteger(options?.shutdownMs, `${where}: shutdownMs`, 0)
  const given = options?.logger
  if (given !== undefined && !logMethods.every((m) => typeof given?.[m] === 'function')) {
    throw optionError(
      'SG_ERR_INSTANCE_INCOMPATIBLE',
      `shapeguard: ${where}: logger must have ${logMethods.join(', ')} methods`,
    )
  }
  return { shutdownMs: shutdownMs ?? DEFAULT_SHUTDOWN_MS, logger: given ?? sharedLogger }
}

/** Whether `done` settles within `ms`. */
function within(done: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(resolve, ms, false)
  })
  return Promise.race([done.then(() => true), late]).finally(() => clearTimeout(timer))
}

/** Writes a line of the shutdown: a logger that throws costs the line, never the shutdown. */
export function write(
  log: Logger,
  level: 'info' | 'warn' | 'error',
  meta: object,
  message: string,
): void {
  try {
    log[level](meta as Record<string, unknown>, message)
  } catch {}
}

// An HTTP/2 server (or one of its own kind) has neither; its sessions end when it closes.
function closeIdle(server: Server): void {
  if (typeof server.closeIdleConnections === 'function') server.closeIdleConnections()
}

function closeAll(server: Server): void {
  if (typeof server.closeAllConnections === 'function') server.closeAllConnections()
}

async function drainServer(server: Server, { shutdownMs, logger }: ResolvedClose): Promise<void> {
  const start = performance.now()
  markDraining(server)
  const drain = new Drain(server)
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  closeIdle(server)
  let cutOff = 0
  if (!(await within(drain.known ? drain.empty() : closed, shutdownMs))) {
    cutOff = drain.expire()
    if (!(await within(drain.empty(), ABORT_GRACE_MS))) {
      drain.answerRest()
      await within(drain.empty(), ABORT_GRACE_MS)
    }
  }
  // What is left holds no request that began before the drain: connections that never sent one.
  closeAll(server)
  await within(closed, CLOSE_MS)
  const meta = {
    shutdownMs,
    durationMs: Math.round(performance.now() - start),
    inFlight: drain.inFlight,
    cutOff,
    refused: drain.refused,
  }
  if (cutOff === 0) write(logger, 'info', meta, 'shapeguard: server closed gracefully')
  else
    write(
      logger,
      'warn',
      meta,
      `shapeguard: server closed, ${cutOff} requests cut off after shutdownMs`,
    )
  await flushLogs(FLUSH_MS)
}

const closing = new WeakMap<Server, Promise<void>>()

/**
 * Shuts down a server you made, without losing a request: it stops accepting connections,
 * answers each new request on a kept-alive connection 503 SHUTTING_DOWN with `Connection: close`
 * (health requests still pass), lets the requests in flight finish within `shutdownMs`, then
 * aborts their `req.signal`, closes the remaining connections and flushes the logs. Calling it
 * again returns the same promise. Connections a store or database of yours holds are yours to
 * close after it settles: shapeguard opens none.
 * @param options `shutdownMs` (default 10000), `logger` (default shapeguard's `logger`)
 * @example process.once('SIGTERM', () => closeGracefully(server).then(() => db.end()))
 */
export function closeGracefully(server: Server, options?: CloseOptions): Promise<void> {
  const known = closing.get(server)
  if (known !== undefined) return known
  const resolved = resolveClose(options, 'closeGracefully()')
  const done = drainServer(server, resolved)
  closing.set(server, done)
  return done
}
