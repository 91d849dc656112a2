// `npm run docs:reference`: writes every generated reference page — docs/reference/*.md, and
// docs/options.md and docs/misuse-errors.md — from the code's own definitions. The tests in
// test/readme/ fail when a committed page differs from what its generator writes now.
import { writeFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import * as misuse from '../misuse-errors.js'
import * as options from '../options-reference.js'
import * as api from './api.js'
import * as commands from './commands.js'
import * as environment from './environment.js'
import * as errorCodes from './error-codes.js'
import * as responseHelpers from './response-helpers.js'

const root = resolve(import.meta.dirname, '../..')

const pages: readonly (readonly [path: string, write: () => string])[] = [
  [api.outputPath, () => api.apiReference()],
  [errorCodes.outputPath, errorCodes.errorCodesReference],
  [commands.outputPath, commands.commandsReference],
  [environment.outputPath, environment.environmentReference],
  [responseHelpers.outputPath, responseHelpers.responseHelpersReference],
  [misuse.outputPath, misuse.misuseReference],
  [options.outputPath, () => options.optionsReference().markdown],
]

for (const [path, write] of pages) {
  writeFileSync(path, write())
  console.log(`wrote ${relative(root, path)}`)
}
