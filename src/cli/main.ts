#!/usr/bin/env node
import { fileURLToPath } from 'node:url'
import { takeStdout } from './io.js'
import { guardModule } from './load/module-guard.js'
import { isWatched, watch } from './load/watchdog.js'
import { run } from './run.js'

const args = process.argv.slice(2)
if (isWatched()) {
  const io = takeStdout()
  io.exit(await run(args, io, guardModule(io)))
} else {
  // This process only watches the one that runs the command (see watch).
  process.exitCode = await watch(fileURLToPath(import.meta.url), args)
}
