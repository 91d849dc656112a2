import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { UsageError } from './usage-error.js'

/** Where a command writes: `out` is the real stdout, `err` stderr; `cwd` resolves paths. */
export interface Io {
  readonly out: (text: string) => void
  readonly err: (text: string) => void
  readonly cwd: string
}

/**
 * Keeps stdout for the command's own output: whatever else writes to `process.stdout` (the app's
 * `console.log`, a listen() callback, a logger) goes to stderr instead, so a document written to
 * stdout stays parseable. `exit` ends the process once both streams have flushed: whatever the
 * app started when it was loaded (a server, a timer, a database pool) must not keep it running.
 */
export function takeStdout(): Io & { exit: (code: number) => void } {
  const stdout = process.stdout
  // The real exit, kept before anything (the app's module included) can replace process.exit.
  const exitProcess = process.exit.bind(process)
  const write = stdout.write.bind(stdout) as (text: string, done?: () => void) => boolean
  stdout.write = process.stderr.write.bind(process.stderr) as typeof stdout.write
  // A closed pipe (`shapeguard openapi app.js | head`) ends the output, not the process.
  stdout.on('error', () => {})
  return {
    out: (text) => void write(text),
    err: (text) => void process.stderr.write(text),
    cwd: process.cwd(),
    exit(code) {
      process.exitCode = code
      let pending = 2
      const done = () => {
        if (--pending === 0) exitProcess(code)
      }
      write('', done)
      process.stderr.write('', done)
    },
  }
}

/** Writes `text` to the file `out` (parent folders created), or to stdout without one. */
export function emit(io: Io, out: string | undefined, text: string): void {
  if (out === undefined) {
    io.out(text)
    return
  }
  const file = resolve(io.cwd, out)
  try {
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, text)
  } catch (error) {
    throw new UsageError(`cannot write --out ${out}: ${(error as Error).message}`)
  }
}
