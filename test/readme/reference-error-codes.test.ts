import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { errorCodesReference, outputPath } from '../../scripts/reference/error-codes.js'
import { errorCodeGuide } from '../../src/shared/error-code-guide.js'
import { errorCodes } from '../../src/shared/error-codes.js'

// docs/reference/error-codes.md is generated from the registry and its guide
// (scripts/reference/error-codes.ts): it must be what the generator writes now, and every code
// must say when it is raised and how it is handled.

const committed = () => readFileSync(outputPath, 'utf8')

describe('docs/reference/error-codes.md', () => {
  it('is what `npm run docs:reference` generates from the registry', () => {
    expect(committed(), 'docs/reference/error-codes.md is stale: run npm run docs:reference').toBe(
      errorCodesReference(),
    )
  })

  it('says of every code of the registry when it is raised and how it is handled', () => {
    const codes = Object.keys(errorCodes)
    expect(Object.keys(errorCodeGuide).sort()).toEqual([...codes].sort())
    const missing = Object.entries(errorCodeGuide).flatMap(([code, guide]) =>
      (['raisedBy', 'when', 'client', 'server'] as const)
        .filter((field) => guide[field].trim() === '')
        .map((field) => `${code}.${field}`),
    )
    expect(missing).toEqual([])
  })

  it('has a heading per code, in the order of the registry, with its status', () => {
    const page = committed()
    const headings = page
      .split('\n')
      .filter((line) => line.startsWith('## '))
      .map((line) => line.slice(3))
    expect(headings).toEqual(Object.keys(errorCodes))
    for (const entry of Object.values(errorCodes))
      expect(page).toContain(`## ${entry.code}\n\n**${entry.status}**`)
  })
})
