import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

// The site's four sections, computed from the files of docs/ when the config loads: pages that
// other work adds later (a recipe, an internals note, a reference page) appear without a config
// change, and a page named here that does not exist yet is left out rather than breaking the build.

/** A page of the site: its path under docs/ without `.md`, and its title. */
export interface NavPage {
  readonly path: string
  readonly title: string
}

/** A sidebar group: a heading and its pages. */
export interface NavGroup {
  readonly text: string
  readonly pages: readonly NavPage[]
}

/** A section of the top navigation, with the sidebar groups shown on its pages. */
export interface NavSection {
  readonly text: string
  /** The folder prefix its pages are served under, for the sidebar's matching ('/' for guides). */
  readonly groups: readonly NavGroup[]
}

/** Reference pages agreed in advance, in the sidebar's order; only those that exist are listed. */
export const referencePages = [
  'options',
  'misuse-errors',
  'reference/error-codes',
  'reference/api',
  'reference/response-helpers',
  'reference/commands',
  'reference/environment',
  'versioning',
] as const

/** Top-level pages of docs/ that belong to Internals rather than the guides. */
export const internalsTopLevel = ['performance'] as const

/** The index (docs/README.md), served as the site's home page. */
export const indexPage = 'README'

/** The first `# ` heading of a Markdown text, backticks dropped; the file name when it has none. */
export function titleOf(text: string, fallback: string): string {
  let fenced = false
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced
    if (fenced) continue
    const heading = /^# (.+)$/.exec(line)
    if (heading) return (heading[1] ?? '').replaceAll('`', '').trim()
  }
  return fallback
}

/** The relative `.md` link targets of a Markdown text, in order, without anchors. */
export function mdLinksOf(text: string): string[] {
  const targets: string[] = []
  for (const m of text.matchAll(/\]\(([^)\s#]+\.md)(?:#[^)\s]*)?\)/g)) targets.push(m[1] ?? '')
  return targets
}

function pageOf(docs: string, path: string): NavPage {
  const text = readFileSync(join(docs, `${path}.md`), 'utf8')
  return { path, title: titleOf(text, path) }
}

/** The `.md` files of one folder of docs/ (not recursive), as page paths, sorted by name. */
function folderPages(docs: string, folder: string): string[] {
  const dir = join(docs, folder)
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => (folder === '' ? '' : `${folder}/`) + name.slice(0, -3))
}

/** Pages in the order docs/README.md links them first, then the rest in name order. */
function inIndexOrder(docs: string, paths: readonly string[]): string[] {
  const index = readFileSync(join(docs, `${indexPage}.md`), 'utf8')
  const order = mdLinksOf(index).map((target) => target.replace(/^\.\//, '').slice(0, -3))
  const rank = (path: string) => {
    const at = order.indexOf(path)
    return at === -1 ? order.length : at
  }
  return [...paths].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
}

/** The four sections of the site, from the files present in `docs`. */
export function sections(docs: string): NavSection[] {
  // The agreed pages in their order, then any other page of docs/reference/.
  const reference = [
    ...referencePages.filter((path) => existsSync(join(docs, `${path}.md`))),
    ...folderPages(docs, 'reference').filter((path) => !referencePages.includes(path)),
  ]
  const notGuides = new Set<string>([indexPage, ...referencePages, ...internalsTopLevel])
  const guides = inIndexOrder(
    docs,
    folderPages(docs, '').filter((path) => !notGuides.has(path)),
  )
  // Getting started leads, whatever order the index gives.
  guides.sort((a, b) => Number(b === 'getting-started') - Number(a === 'getting-started'))
  const pages = (paths: readonly string[]) => paths.map((path) => pageOf(docs, path))
  const groups = (text: string, paths: readonly string[]): NavGroup[] =>
    paths.length === 0 ? [] : [{ text, pages: pages(paths) }]
  return [
    {
      text: 'Guide',
      groups: [
        ...groups('Guides', guides),
        ...groups(
          'Moving from another library',
          inIndexOrder(docs, folderPages(docs, 'migration')),
        ),
      ],
    },
    { text: 'Reference', groups: groups('Reference', reference) },
    { text: 'Recipes', groups: groups('Recipes', folderPages(docs, 'recipes')) },
    {
      text: 'Internals',
      groups: groups('Internals', [
        ...internalsTopLevel.filter((path) => existsSync(join(docs, `${path}.md`))),
        ...folderPages(docs, 'internals'),
      ]),
    },
  ].filter((section) => section.groups.length > 0)
}

/** The site's link to a page: `/validation`, `/recipes/cors` (clean URLs). */
export function linkOf(path: string): string {
  return `/${path}`
}
