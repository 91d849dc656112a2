import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  answerOf,
  helpers,
  outputPath,
  readHelpers,
  responseHelpersReference,
} from '../../scripts/reference/response-helpers.js'
import { responseHelpers } from '../../src/runtime/response/helpers.js'

// docs/reference/response-helpers.md is generated from the ResponseHelpers type and the answers of
// the helpers themselves (scripts/reference/response-helpers.ts): it must be what the generator
// writes now, with every helper the runtime installs and every option described.

const committed = () => readFileSync(outputPath, 'utf8')
let members: ReturnType<typeof readHelpers>
beforeAll(() => {
  members = readHelpers()
}, 60_000)

describe('docs/reference/response-helpers.md', () => {
  it('is what `npm run docs:reference` generates', () => {
    expect(
      committed(),
      'docs/reference/response-helpers.md is stale: run npm run docs:reference',
    ).toBe(responseHelpersReference())
  }, 60_000)

  it('lists every helper the runtime installs, each with a heading', () => {
    const names = members.map((m) => m.name).sort()
    expect(Object.keys(responseHelpers).sort()).toEqual(names)
    expect(Object.keys(helpers).sort()).toEqual(names)
    for (const name of names) expect(committed()).toContain(`\n## res.${name}()\n`)
  })

  it('describes every option of every helper', () => {
    const undescribed = members.flatMap((m) =>
      m.options.filter((o) => o.description === '').map((o) => `res.${m.name}(): ${o.name}`),
    )
    expect(undescribed).toEqual([])
  })

  it('states the status each example answers with', () => {
    for (const [name, entry] of Object.entries(helpers)) {
      // An example that gives its own status answers with it.
      if (entry.run === undefined || entry.run.args.includes('status:')) continue
      const { status } = answerOf(entry.run, name)
      expect(entry.status, `res.${name}()`).toContain(`\`${status}\``)
    }
  })
})
