#!/usr/bin/env node
import { takeStdout } from './io.js'
import { run } from './run.js'

const io = takeStdout()
// Nothing left to run before the command ends: the module awaits what never comes while it is
// loaded. Say so, rather than let Node end the process without a word.
process.once('beforeExit', () => {
  io.err(
    'shapeguard: the module never finished loading: it awaits something that does not happen ' +
      'while shapeguard loads it (a server event, a connection, input). Do that only when the ' +
      'file is run (if (import.meta.main) …), or in a file of its own.\n',
  )
  io.exit(2)
})
// An error nothing caught (a module's timer that throws while it loads, a rejected promise it
// left behind): the command could not run, whatever the app does after.
const fail = (error: unknown) => {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error)
  io.err(`shapeguard: the app's module threw outside the command (exit status 2):\n${detail}\n`)
  io.exit(2)
}
process.on('uncaughtException', fail)
process.on('unhandledRejection', fail)
io.exit(await run(process.argv.slice(2), io))
