import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { ensureBuilt, fixtures, shapeguard } from '../support/cli.js'
import { blocksOf } from '../support/readme-blocks.js'

// docs/cli.md shows the example app and what each command prints for it. Its example app is
// test/cli/fixtures/todo/app.mjs; each output block (marked `skip output of the command above`)
// is what the last command of the `sh` block before it prints, run in that folder, and its exit
// status. After a change to what a command prints, run it there and paste the output.

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 })

const blocks = blocksOf('docs/cli.md')
const cwd = join(fixtures, 'todo')
const marker = /^output of the command above \(exit (\d)(, the beginning)?\)/

/** The words of a command line, with single-quoted words as POSIX shells read them. */
function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '')
}

const outputs = blocks.flatMap((block, i) => {
  const m = marker.exec(block.skip ?? '')
  if (m === null) return []
  const before = blocks[i - 1]
  const command = before?.lang === 'sh' ? before.code.trimEnd().split('\n').at(-1) : undefined
  return [
    {
      line: block.line,
      shown: block.code,
      status: Number(m[1]),
      prefix: m[2] !== undefined,
      command,
    },
  ]
})

beforeAll(() => {
  ensureBuilt()
})

describe('docs/cli.md', () => {
  it('shows the example app as it is in test/cli/fixtures/todo/app.mjs', () => {
    const app = blocks.find((b) => b.lang === 'js')
    expect(app?.code).toBe(readFileSync(join(cwd, 'app.mjs'), 'utf8'))
  })

  it('shows the output of every command', () => {
    expect(outputs.map((o) => o.command)).toEqual([
      'npx shapeguard openapi app.mjs --format yaml',
      'npx shapeguard postman app.mjs',
      'npx shapeguard fuzz app.mjs --seed 7',
      "npx shapeguard fuzz app.mjs --seed 7 --status 'PATCH /todos/:id=404'",
      'npx shapeguard check app.mjs',
    ])
  })

  it.each(outputs.map((o) => [`${o.command} (line ${o.line})`, o] as const))(
    '%s prints what the guide shows',
    (_, { command = '', shown, status, prefix }) => {
      const [npx, bin, ...args] = words(command)
      expect([npx, bin]).toEqual(['npx', 'shapeguard'])
      const run = shapeguard(args, { cwd })
      expect(run.stderr).toBe('')
      expect(run.status).toBe(status)
      if (prefix) expect(run.stdout.slice(0, shown.length)).toBe(shown)
      else expect(run.stdout).toBe(shown)
    },
  )
})
