/**
 * A mistake in how the command was called or in what it was given: exit status 2, a message that
 * names the file and the fix, no stack. `seeHelp` adds a pointer to the command's --help.
 */
export class UsageError extends Error {
  override name = 'UsageError'
  constructor(
    message: string,
    readonly seeHelp = false,
  ) {
    super(message)
  }
}

/**
 * Exit statuses: success, a problem `fuzz` or `check` found, the command could not run; a signal
 * that ends the command gives `signal` plus its number, as shells do.
 */
export const EXIT = { ok: 0, problem: 1, usage: 2, signal: 128 } as const
