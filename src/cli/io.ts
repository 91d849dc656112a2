import { mkdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, extname, resolve } from 'node:path'
import { UsageError } from './usage-error.js'

/** Where a command writes: `out` is the real stdout, `err` stderr; `cwd` resolves paths. */
export interface Io {
  readonly out: (text: string) => void
  readonly err: (text: string) => void
  readonly cwd: string
}

/** The process's Io, with the one way to end it. */
export interface ProcessIo extends Io {
  /** Ends the process with `code` once both streams have flushed; only the first call counts. */
  readonly exit: (code: number) => void
}

/**
 * Keeps stdout for the command's own output: whatever else writes to `process.stdout` (the app's
 * `console.log`, a listen() callback, a logger) goes to stderr instead, so a document written to
 * stdout stays parseable. `exit` ends the process once both streams have flushed: whatever the
 * app started when it was loaded (a server, a timer, a database pool) must not keep it running.
 * Once the exit status is decided, the command writes nothing more (a command that goes on for a
 * few ticks after its module exited cannot print a result that contradicts it).
 */
export function takeStdout(): ProcessIo {
  const stdout = process.stdout
  // The real exit, kept before anything (the app's module included) can replace process.exit.
  const exitProcess = process.exit.bind(process)
  const write = stdout.write.bind(stdout) as (text: string, done?: () => void) => boolean
  stdout.write = process.stderr.write.bind(process.stderr) as typeof stdout.write
  // A closed pipe (`shapeguard openapi app.js | head`) ends the output, not the process.
  stdout.on('error', () => {})
  let exiting = false
  return {
    out: (text) => void (exiting || write(text)),
    err: (text) => void (exiting || process.stderr.write(text)),
    cwd: process.cwd(),
    exit(code) {
      if (exiting) return
      exiting = true
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

/** The extensions of a module Node (or a loader such as tsx) runs. */
export const moduleExtensions = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.jsx', '.tsx']

/** Whether two paths are one file (through links too); false when either does not exist. */
function sameFile(a: string, b: string): boolean {
  const [x, y] = [statSync(a, { throwIfNoEntry: false }), statSync(b, { throwIfNoEntry: false })]
  return x !== undefined && y !== undefined && x.dev === y.dev && x.ino === y.ino
}

/**
 * Refuses an `--out` that would replace code: the module itself (by any path or link), or any
 * JavaScript or TypeScript file (one the module may import). Checked before the module loads.
 */
export function checkOut(io: Io, out: string | undefined, module: string): void {
  if (out === undefined) return
  const file = resolve(io.cwd, out)
  const fix = 'Write to a file of its own (openapi.json).'
  if (sameFile(file, resolve(io.cwd, module)))
    throw new UsageError(
      `--out ${out} is the module ${module}: the command would replace it. ${fix}`,
    )
  if (moduleExtensions.includes(extname(file)))
    throw new UsageError(
      `--out ${out} is a JavaScript or TypeScript file: the command writes JSON or YAML. ${fix}`,
    )
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
