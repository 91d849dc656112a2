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
io.exit(await run(process.argv.slice(2), io))
