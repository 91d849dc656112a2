import type { ProcessIo } from '../io.js'
import { EXIT } from '../usage-error.js'
import { doneLoading, startLoading } from './watchdog.js'

/** Where the app's module is in a command's run: the guard words its messages by it. */
export interface ModuleGuard {
  /** The module `shown` starts loading; the watchdog gives it `ms`. */
  readonly loading: (shown: string, ms: number) => void
  /** It has loaded (its factory called): what it does from now on happens while the command runs. */
  readonly loaded: () => void
}

const fix = 'only when the file is run (if (import.meta.main) …), or in a file of its own.'

/**
 * Holds the app's module to what a command needs, for the whole run: whatever the module does
 * that ends the process, while it loads or while the command runs, ends it with `EXIT.usage`
 * and a message that names the file, never with a status the command did not decide (a CI gate
 * that passes on `process.exit(0)` from one of the app's timers). The command's own status
 * still ends the process through `io.exit`, which kept the real `process.exit`.
 */
export function guardModule(io: ProcessIo): ModuleGuard {
  let shown = 'the module'
  let phase: 'loading' | 'running' = 'running'
  const stop = (message: string) => {
    io.err(`shapeguard: ${message}\n`)
    io.exit(EXIT.usage)
  }
  process.exit = ((code?: number | string | null) => {
    const exits = `${shown} called process.exit(${code ?? ''})`
    stop(
      phase === 'loading'
        ? `${exits} while it was loaded: shapeguard needs the module to build the app without ` +
            'exiting (check what it reads at load: environment variables, connections, files)'
        : `${exits} after it was loaded, while the command ran: the command did not finish. ` +
            `Start what ends the process (timers, signal handlers) ${fix}`,
    )
    // process.exit() does not return: neither does the module's code after it.
    throw new Error(`${exits}: shapeguard ends the process with exit status ${EXIT.usage}`)
  }) as typeof process.exit
  // Nothing left to run before the command ends: the module awaits what never comes.
  process.once('beforeExit', () =>
    stop(
      `${shown} ${phase === 'loading' ? 'never finished loading' : 'left the command waiting for what never came'}: ` +
        'it awaits something that does not happen while shapeguard runs it (a server event, a ' +
        `connection, input). Do that ${fix}`,
    ),
  )
  // An error nothing caught (a module's timer that throws, a rejected promise it left behind):
  // the command could not run, whatever the app does after.
  const fail = (error: unknown) => {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error)
    stop(`the app's module threw outside the command (exit status ${EXIT.usage}):\n${detail}`)
  }
  process.on('uncaughtException', fail)
  process.on('unhandledRejection', fail)
  return {
    loading(module, ms) {
      shown = module
      phase = 'loading'
      startLoading(module, ms)
    },
    loaded() {
      phase = 'running'
      doneLoading()
    },
  }
}
