import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { misuseReference, outputPath } from '../../scripts/misuse-errors.js'
import { type MisuseCode, misuseAnchor, misuseCodes } from '../../src/shared/misuse-codes.js'

// docs/misuse-errors.md is generated from the registry (scripts/misuse-errors.ts): it must be what
// the generator writes now, with one heading per code so each code's anchor reaches its entry.

const committed = () => readFileSync(outputPath, 'utf8')

describe('docs/misuse-errors.md', () => {
  it('is what `npm run docs:misuse` generates from the registry', () => {
    expect(committed(), 'docs/misuse-errors.md is stale: run npm run docs:misuse').toBe(
      misuseReference(),
    )
  })

  it('has a heading for every code, whose GitHub anchor is the code in lower case', () => {
    const headings = committed()
      .split('\n')
      .filter((line) => line.startsWith('## '))
      .map((line) => line.slice(3))
    expect(headings).toEqual(Object.keys(misuseCodes))
    for (const code of Object.keys(misuseCodes) as MisuseCode[]) {
      // GitHub's slug: lower case, spaces to hyphens, punctuation but - and _ dropped.
      expect(misuseAnchor(code)).toBe(code.toLowerCase().replace(/[^\w-]/g, ''))
    }
  })
})
