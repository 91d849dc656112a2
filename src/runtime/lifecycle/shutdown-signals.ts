import type { Server } from 'node:http'
import { constants } from 'node:os'
import type { Logger } from '../logging/types.js'
import { closeGracefully, type ResolvedClose, write } from './close-gracefully.js'
import { markDraining, markProcessDraining } from './drain-state.js'

/** A server `serve()` started, until it has shut down. */
export interface Served {
  readonly server: Server
  readonly close: ResolvedClose
  readonly signals: readonly NodeJS.Signals[]
  readonly onShutdown: (() => unknown) | undefined
  /** Readiness answers 503 this long before the drain starts. */
  readonly drainDelayMs: number
  done: Promise<void> | undefined
}

// Every served server shares one listener per signal, installed while one of them asks for it:
// a signal drains them all, then the process exits once. A second signal during that drain
// exits at once.
const served = new Set<Served>()
const listening = new Map<NodeJS.Signals, () => void>()
let exiting = false

// Past the longest grace: the abort grace, closing, flushing and `onShutdown` together.
const WATCHDOG_MS = 10_000

function processLogger(): Logger | undefined {
  for (const entry of served) return entry.close.logger
  return undefined
}

function sync(): void {
  const wanted = new Set<NodeJS.Signals>()
  for (const entry of served) for (const signal of entry.signals) wanted.add(signal)
  for (const [signal, listener] of listening) {
    if (wanted.has(signal) || exiting) continue
    process.off(signal, listener)
    listening.delete(signal)
  }
  for (const signal of wanted) {
    if (listening.has(signal)) continue
    const listener = () => onSignal(signal)
    listening.set(signal, listener)
    process.on(signal, listener)
  }
}

/** Drains `entry`'s server, then runs its `onShutdown`; the same promise on every call. */
export function shutdown(entry: Served): Promise<void> {
  entry.done ??= (async () => {
    if (entry.drainDelayMs > 0) {
      // Still serving, but no longer ready: the load balancers stop sending first.
      markDraining(entry.server)
      await new Promise((resolve) => setTimeout(resolve, entry.drainDelayMs))
    }
    await closeGracefully(entry.server, entry.close)
    try {
      await entry.onShutdown?.()
    } catch (err) {
      write(
        entry.close.logger,
        'error',
        { errorName: (err as Error)?.name },
        'shapeguard: onShutdown threw',
      )
    }
    if (!exiting) forget(entry)
  })()
  return entry.done
}

function forget(entry: Served): void {
  served.delete(entry)
  sync()
}

/** Starts watching the signals `entry` asks for; a server closed by other means is forgotten. */
export function watch(entry: Served): void {
  served.add(entry)
  sync()
  entry.server.once('close', () => {
    if (entry.done === undefined && !exiting) forget(entry)
  })
}

function onSignal(signal: NodeJS.Signals): void {
  const log = processLogger()
  if (exiting) {
    // What Kubernetes or a second Ctrl-C means: stop now, as the signal's default would.
    const exitCode = 128 + (constants.signals[signal] ?? 0)
    if (log !== undefined)
      write(
        log,
        'warn',
        { signal, exitCode },
        `shapeguard: second ${signal} during shutdown, exiting now`,
      )
    process.exit(exitCode)
  }
  exiting = true
  markProcessDraining()
  const entries = [...served]
  const longest = Math.max(
    0,
    ...entries.map((entry) => entry.drainDelayMs + entry.close.shutdownMs),
  )
  if (log !== undefined) {
    write(
      log,
      'info',
      { signal, shutdownMs: longest },
      `shapeguard: ${signal} received, shutting down`,
    )
  }
  setTimeout(() => {
    if (log !== undefined)
      write(log, 'error', { signal }, 'shapeguard: shutdown did not finish in time, exiting')
    process.exit(1)
  }, longest + WATCHDOG_MS).unref()
  // Exits even while a database client or a timer of the app's would keep the process up: its
  // connections are closed in `onShutdown`, and the log lines still held are written on exit.
  void Promise.allSettled(entries.map(shutdown)).then(() => process.exit())
}
