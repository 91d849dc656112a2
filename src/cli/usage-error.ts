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

/** What each exit status means, for the reference (docs/reference/commands.md). */
export const exitMeaning: { readonly [K in keyof typeof EXIT]: string } = {
  ok: 'success: the command ran and found nothing wrong.',
  problem:
    '`fuzz`, `check` or `diff` found a problem (a broken invariant, a finding, a breaking change), or `coverage`: the test command failed or a `--min` threshold was not met.',
  usage:
    'the command could not run: a usage error (an unknown flag, a missing argument), a missing module, no app found in it, a module that exits or does not finish loading within `--load-timeout`.',
  signal:
    "a signal ended the command: this status plus the signal's number, as shells report it (a signal that ends the test command of `coverage` is a failed test run).",
}
