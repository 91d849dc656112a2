import { spawn } from 'node:child_process'
import { fstatSync, writeSync } from 'node:fs'
import { constants } from 'node:os'
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'
import { EXIT } from '../usage-error.js'

// A module that loops without end, or awaits with a timer open, cannot be stopped from its own
// thread. So the command runs in a child process, which tells this one, over its fd 3, when a
// module starts loading (and how long it has) and when it has loaded; this process kills it
// when that takes too long. The child is the same script with the same Node options and streams.
const WATCHED = 'SHAPEGUARD_WATCHED'
const CHANNEL = 3

let watched = false

/**
 * Whether this process is the watched child: the marker is set and fd 3 is a pipe. The marker is
 * removed from the environment, so the app's own child processes do not inherit it.
 */
export function isWatched(): boolean {
  watched = process.env[WATCHED] === '1' && isPipe(CHANNEL)
  delete process.env[WATCHED]
  return watched
}

function isPipe(fd: number): boolean {
  try {
    const stat = fstatSync(fd)
    return stat.isFIFO() || stat.isSocket()
  } catch {
    return false
  }
}

function tell(message: { loading: string; ms: number } | { loaded: true }): void {
  if (!watched) return
  try {
    writeSync(CHANNEL, `${JSON.stringify(message)}\n`)
  } catch {
    // The watchdog is gone (killed on its own): the command goes on unwatched.
  }
}

/** Tells the watchdog that the module `shown` starts loading and has `ms` to finish. */
export const startLoading = (shown: string, ms: number) => tell({ loading: shown, ms })

/** Tells the watchdog that the module has loaded: the command itself has no time limit. */
export const doneLoading = () => tell({ loaded: true })

const timedOut = (shown: string, ms: number) =>
  `shapeguard: ${shown} did not finish loading within ${ms / 1000} s: it awaits something that ` +
  'does not happen while shapeguard loads it (a connection, a server event), or never returns. ' +
  'Do that only when the file is run (if (import.meta.main) …), or give it longer with ' +
  '--load-timeout <seconds> (default 30).\n'

/**
 * Runs `script args` as the watched child and resolves with its exit status: `EXIT.usage` when a
 * module took longer to load than it was given (the child is killed), `EXIT.signal` + the
 * signal's number when a signal ended the child. The signals this process gets (Ctrl-C, a CI
 * job's timeout) go to it.
 */
export function watch(script: string, args: readonly string[]): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, script, ...args], {
    stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
    env: { ...process.env, [WATCHED]: '1' },
  })
  const channel = child.stdio[CHANNEL] as Readable
  let timer: NodeJS.Timeout | undefined
  let late: string | undefined
  createInterface({ input: channel }).on('line', (line) => {
    let message: { loading?: string; ms?: number }
    try {
      message = JSON.parse(line)
    } catch {
      // Not the child's (the app, or a library, wrote to the fd it inherited): not a report.
      return
    }
    clearTimeout(timer)
    if (message.loading === undefined) return
    const { loading, ms = 0 } = message
    timer = setTimeout(() => {
      late = timedOut(loading, ms)
      child.kill('SIGKILL')
    }, ms)
  })
  // A closed stderr must not end this process with its own status instead of the child's.
  process.stderr.on('error', () => {})
  const forward = (signal: NodeJS.Signals) => child.kill(signal)
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, forward)
  return new Promise((resolve) => {
    const end = (status: number) => {
      clearTimeout(timer)
      // An app's own child process may hold the channel open: it is not waited for.
      channel.destroy()
      for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(signal, forward)
      resolve(status)
    }
    child.on('error', (error) => {
      process.stderr.write(`shapeguard: cannot start the command: ${error.message}\n`)
      end(EXIT.usage)
    })
    child.on('exit', (code, signal) => {
      if (late !== undefined) process.stderr.write(late)
      if (late !== undefined) end(EXIT.usage)
      else if (signal) end(EXIT.signal + (constants.signals[signal] ?? 0))
      else end(code ?? EXIT.usage)
    })
  })
}
