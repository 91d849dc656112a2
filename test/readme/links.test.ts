import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { headingAnchors } from '../../scripts/reference/markdown.js'
import { docFiles, root } from '../support/readme-blocks.js'

// Every relative link of the README and the guides in docs/ reaches a file of the repository,
// and every `#anchor` a heading of its page, as GitHub (and npm's page, which resolves relative
// links against the repository) names headings.

/** The Markdown links of a text outside code, `[text](target)`, with their line numbers. */
function linksOf(text: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = []
  let fenced = false
  text.split('\n').forEach((line, i) => {
    if (line.startsWith('```')) fenced = !fenced
    if (fenced) return
    const prose = line.replace(/`[^`]*`/g, '')
    for (const m of prose.matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)) {
      links.push({ target: m[1] ?? '', line: i + 1 })
    }
  })
  return links
}

describe('the links of the README and docs/', () => {
  const files = docFiles()
  const texts = new Map(files.map((f) => [f, readFileSync(resolve(root, f), 'utf8')]))

  it.each(files)('%s links only to files and headings that exist', (file) => {
    const broken: string[] = []
    for (const { target, line } of linksOf(texts.get(file) ?? '')) {
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue // https:, mailto:, …
      const [path = '', anchor] = target.split('#')
      const to = path === '' ? resolve(root, file) : resolve(root, dirname(file), path)
      if (!existsSync(to)) {
        broken.push(`${file}:${line} ${target}: no file ${relative(root, to)}`)
        continue
      }
      if (anchor === undefined || statSync(to).isDirectory()) continue
      const page = texts.get(relative(root, to)) ?? readFileSync(to, 'utf8')
      if (!headingAnchors(page).has(anchor))
        broken.push(`${file}:${line} ${target}: no heading #${anchor}`)
    }
    expect(broken).toEqual([])
  })

  it('links every guide from the README and from docs/README.md', () => {
    const guides = files.filter((f) => f.startsWith('docs/') && f !== 'docs/README.md')
    const linked = (from: string) =>
      new Set(
        linksOf(texts.get(from) ?? '').map(({ target }) =>
          relative(root, resolve(root, dirname(from), target.split('#')[0] ?? '')),
        ),
      )
    const fromReadme = linked('README.md')
    const fromIndex = linked('docs/README.md')
    expect(guides.filter((g) => !fromReadme.has(g))).toEqual([])
    expect(guides.filter((g) => !fromIndex.has(g))).toEqual([])
  })
})
