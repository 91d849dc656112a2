import { Server } from 'node:net'
import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'

/** What the app did with listen() while it was loaded. */
export interface Diverted {
  /** Where each call came from (`app.mjs:14`), as a path relative to the working directory. */
  readonly calls: readonly string[]
  /** Ends the loading phase: later calls are still diverted, but not reported or unref'd. */
  readonly loaded: () => void
}

const here = fileURLToPath(import.meta.url)

/** The first frame of a stack outside Node, node_modules and this file, as `file:line`. */
function callerOf(stack: string, cwd: string): string | undefined {
  for (const line of stack.split('\n').slice(1)) {
    const frame = /\(?((?:file:\/\/)?\/[^():]+|[A-Za-z]:\\[^():]+):(\d+):\d+\)?$/.exec(line)
    if (frame === null) continue
    const file = frame[1]?.startsWith('file://') ? fileURLToPath(frame[1]) : (frame[1] ?? '')
    if (file === here || file.includes('/node_modules/') || file.includes('\\node_modules\\'))
      continue
    return `${relative(cwd, file)}:${frame[2]}`
  }
  return undefined
}

/**
 * From now on every `listen()` (an Express app's included) listens on a free port on 127.0.0.1
 * instead of the one asked for: a module that starts its server when imported neither takes its
 * port nor fails on a port in use. Until `loaded()`, each call is recorded and its server unref'd,
 * so it cannot keep the process alive.
 */
export function divertListen(cwd: string): Diverted {
  const listen = Server.prototype.listen
  const listenOn = listen as (this: Server, port: number, host: string, done?: () => void) => Server
  const calls: string[] = []
  let loading = true
  Server.prototype.listen = function divertedListen(this: Server, ...args: unknown[]) {
    const callback = args.findLast((arg) => typeof arg === 'function') as (() => void) | undefined
    listenOn.call(this, 0, '127.0.0.1', callback)
    if (loading) {
      calls.push(callerOf(new Error().stack ?? '', cwd) ?? 'the module')
      this.unref()
    }
    return this
  } as typeof listen
  return {
    calls,
    loaded: () => {
      loading = false
    },
  }
}
