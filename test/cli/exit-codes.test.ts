import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EXIT } from '../../src/cli/usage-error.js'

const cli = join(import.meta.dirname, '../../src/cli')

// The forms an exit status takes in the command's code: an exit called or assigned, a status
// returned or chosen by a ternary, the watchdog's `end`, a fallback, the signal base, and the help
// text that states one. Each must name EXIT's entry, not its number.
const literal = [
  /\b\w*exit\w*\s*(?:\(|=)\s*\d/i,
  /\breturn\s+\d{1,3}\b/,
  /\?\s*\d{1,3}\s*:|:\s*\d{1,3}\s*$/m,
  /\bend\(\s*\d/,
  /\?\?\s*[1-9]\d{0,2}\b/,
  /\b128\b/,
  /\bexit(?:s| status)?:? \d/i,
]

/** A file's code without its comments (`exit status 2` in a comment says what EXIT.usage is). */
function code(file: string): string {
  return readFileSync(join(cli, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
}

describe('the exit statuses of the shapeguard command', () => {
  it('go through EXIT everywhere in src/cli', () => {
    const found = readdirSync(cli, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) =>
        code(file)
          .split('\n')
          .filter((line) => !line.startsWith('export const EXIT = '))
          .filter((line) => literal.some((re) => re.test(line)))
          .map((line) => `${file}: ${line.trim()}`),
      )
    expect(found).toEqual([])
  })

  it('are the ones the help and docs/cli.md promise', () => {
    expect(EXIT).toEqual({ ok: 0, problem: 1, usage: 2, signal: 128 })
  })
})
