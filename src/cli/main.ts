#!/usr/bin/env node
import { takeStdout } from './io.js'
import { run } from './run.js'

const io = takeStdout()
io.exit(await run(process.argv.slice(2), io))
