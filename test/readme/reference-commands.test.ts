import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { commandsReference, outputPath, prose } from '../../scripts/reference/commands.js'
import { commands } from '../../src/cli/run.js'
import { EXIT, exitMeaning } from '../../src/cli/usage-error.js'

// docs/reference/commands.md is generated from the command definitions
// (scripts/reference/commands.ts): it must be what the generator writes now, with a section per
// command that lists each of its flags, and every exit status.

const committed = () => readFileSync(outputPath, 'utf8')

describe('docs/reference/commands.md', () => {
  it('is what `npm run docs:reference` generates from the command definitions', () => {
    expect(committed(), 'docs/reference/commands.md is stale: run npm run docs:reference').toBe(
      commandsReference(),
    )
  })

  it('has a section per command listing every flag it takes', () => {
    const page = committed()
    for (const [name, command] of Object.entries(commands)) {
      const start = page.indexOf(`\n## ${name}\n`)
      expect(start, `a section for ${name}`).toBeGreaterThan(0)
      const end = page.indexOf('\n## ', start + 1)
      const body = page.slice(start, end)
      for (const flag of [...Object.keys(command.options), 'help'])
        expect(body, `${name} --${flag}`).toMatch(new RegExp(`^- \`(?:-\\w, )?--${flag}\\b`, 'm'))
    }
  })

  it('gives every exit status a meaning', () => {
    for (const key of Object.keys(EXIT) as (keyof typeof EXIT)[]) {
      expect(exitMeaning[key].length).toBeGreaterThan(10)
      expect(committed()).toContain(`- \`${EXIT[key]}\` (\`EXIT.${key}\`): `)
    }
  })

  it('puts what reads as code in code spans, and leaves apostrophes alone', () => {
    expect(prose("the app's <module> and --min, with 'a=1' and fuzzRoutes()")).toBe(
      "the app's `<module>` and `--min`, with `a=1` and `fuzzRoutes()`",
    )
    expect(prose('already `--code` here')).toBe('already `--code` here')
  })
})
