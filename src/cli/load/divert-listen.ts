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
    // `    at f (/app/x.mjs:14:3)` or `    at /app/x.mjs:14:3`: the line and column at the end, the
    // location after the last `(` or after `at `; only an absolute path or a file URL counts.
    const position = /:(\d+):\d+\)?$/.exec(line)
    if (position === null) continue
    const head = line.slice(0, position.index)
    const open = head.lastIndexOf('(')
    const location = open >= 0 ? head.slice(open + 1) : head.replace(/^\s*at (?:async )?/, '')
    if (!/^(?:file:\/\/)?\/|^[A-Za-z]:\\/.test(location)) continue
    const file = location.startsWith('file://') ? fileURLToPath(location) : location
    if (file === here || file.includes('/node_modules/') || file.includes('\\node_modules\\'))
      continue
    return `${relative(cwd, file)}:${position[1]}`
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
