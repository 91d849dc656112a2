import { readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { GUIDES, optionsReference, type Reference } from '../../scripts/options-reference.js'
import { headingAnchors } from '../../scripts/reference/markdown.js'

// docs/options.md (scripts/options-reference.ts) links each section to the guide that explains
// it, gives each option its whole JSDoc, and prints types a reader can look up: no type of src/
// that the package does not export. test/readme/options-reference.test.ts checks the rest.

const root = resolve(import.meta.dirname, '../..')
let reference: Reference
beforeAll(() => {
  reference = optionsReference()
}, 120_000)

/** The types src/ declares at the top level of a file, exported or not. */
function declaredInSrc(): Set<string> {
  const names = new Set<string>()
  const src = resolve(root, 'src')
  for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue
    const text = readFileSync(resolve(src, file), 'utf8')
    for (const m of text.matchAll(/^(?:export )?(?:interface|type|class|enum)\s+([A-Z]\w*)/gm))
      names.add(m[1] ?? '')
  }
  return names
}

describe('docs/options.md', () => {
  it('links every section to a heading of a guide', () => {
    const broken: string[] = []
    for (const section of reference.sections) {
      const first = section.functions[0] ?? ''
      const guide = GUIDES[first]
      if (guide === undefined) {
        broken.push(`${first}(): no guide in GUIDES`)
        continue
      }
      const [file = '', anchor = ''] = guide[1].split('#')
      const page = readFileSync(resolve(root, 'docs', file), 'utf8')
      if (!headingAnchors(page).has(anchor)) broken.push(`${first}(): ${guide[1]} has no heading`)
    }
    expect(broken).toEqual([])
    const sectioned = new Set(reference.sections.map((s) => s.functions[0]))
    expect(Object.keys(GUIDES).filter((fn) => !sectioned.has(fn))).toEqual([])
  })

  it('names in its type cells only types the package exports, or types of other packages', () => {
    const internal = declaredInSrc()
    const found: string[] = []
    for (const s of reference.sections)
      for (const t of s.tables)
        for (const r of t.rows) {
          const text = r.type.replace(/'[^']*'/g, '').replace(/`[^`]*`/g, '')
          for (const [name] of text.matchAll(/\b[A-Z]\w*/g))
            if (internal.has(name) && !reference.publicNames.has(name))
              found.push(`${s.functions[0]}() ${r.name}: ${name} in ${r.type}`)
        }
    expect(found).toEqual([])
  })

  it('gives each option its whole description, not its first sentence', () => {
    const rows = reference.sections.flatMap((s) => s.tables.flatMap((t) => t.rows))
    const several = rows.filter((r) => /\.\s+[A-Z`]/.test(r.description))
    expect(several.length).toBeGreaterThan(10)
    const page = readFileSync(resolve(root, 'docs/options.md'), 'utf8')
    for (const r of several) expect(page).toContain(r.description)
  })
})
