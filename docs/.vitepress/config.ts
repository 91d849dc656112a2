// The docs site: VitePress, built from docs/ as it is.
//
// Why VitePress rather than Starlight: VitePress takes the existing docs/ folder of plain
// Markdown as its source folder (srcDir), so the guides stay where GitHub and the npm package
// show them, with no move into Starlight's src/content/docs; and it has, built in, a local
// full-text search that works offline (MiniSearch, the index built into the site), dark mode,
// and copy buttons on code blocks. Its default dead-link check (ignoreDeadLinks off) fails the
// build on a link to a page that does not exist.
//
// `npm run docs:dev` serves it, `npm run docs:build` writes it to site/ (outside docs/, ignored by
// git). SHAPEGUARD_SITE_OUT and SHAPEGUARD_SITE_CACHE move the output and the cache (the tests
// build into a temporary folder).
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type DefaultTheme, defineConfig } from 'vitepress'
import { anchorOf } from '../../scripts/reference/markdown.js'
import { noVueInterpolation, repositoryLinks, unknownTagsAsText } from './markdown.js'
import { indexPage, linkOf, type NavSection, sections } from './navigation.js'

const srcDir = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const root = resolve(srcDir, '..')
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as {
  description: string
  repository: { url: string }
}
/** `https://github.com/shapeguard/shapeguard`, from package.json's repository. */
const repository = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '')

const site = sections(srcDir)

function sidebarOf(section: NavSection, collapsed?: boolean): DefaultTheme.SidebarItem[] {
  return section.groups.map((group) => ({
    text: section.groups.length === 1 ? section.text : group.text,
    ...(collapsed === undefined ? {} : { collapsed }),
    items: group.pages.map((page) => ({ text: page.title, link: linkOf(page.path) })),
  }))
}

/**
 * One sidebar per section, keyed by each of its pages (`/validation.md`), so that a page shows
 * its own section's list; the home page shows every section.
 */
function sidebar(): DefaultTheme.SidebarMulti {
  const multi: DefaultTheme.SidebarMulti = {}
  for (const section of site) {
    for (const group of section.groups) {
      for (const page of group.pages) multi[`/${page.path}.md`] = sidebarOf(section)
    }
  }
  multi['/index.md'] = site.flatMap((section, i) => sidebarOf(section, i !== 0))
  return multi
}

export default defineConfig({
  srcDir,
  outDir: process.env.SHAPEGUARD_SITE_OUT ?? resolve(root, 'site'),
  cacheDir: process.env.SHAPEGUARD_SITE_CACHE ?? resolve(srcDir, '.vitepress/cache'),
  // docs/README.md is the home page, and stays docs/README.md for GitHub and the package.
  rewrites: { [`${indexPage}.md`]: 'index.md' },
  title: 'shapeguard',
  description: pkg.description,
  lang: 'en-US',
  cleanUrls: true,
  lastUpdated: false,
  ignoreDeadLinks: false,
  // Dark mode as usual, but without the <style> element VueUse adds for a moment to stop CSS
  // transitions while the mode changes: an inline style a strict Content-Security-Policy
  // (style-src 'self') refuses. The cost: colours fade for a moment when the mode is switched.
  appearance: { disableTransition: false },
  markdown: {
    // Headings get GitHub's anchors, so that `guide.md#a-heading` works on both.
    anchor: { slugify: anchorOf }, // GitHub's anchors, as the links test checks them
    // `{.class}` attributes are not GitHub Markdown: text like `{ auth }` stays text.
    attrs: { disable: true },
    config(md) {
      repositoryLinks(md, { root, srcDir, repository })
      unknownTagsAsText(md)
      noVueInterpolation(md)
    },
  },
  themeConfig: {
    nav: site.map((section) => ({
      text: section.text,
      link: linkOf(section.groups[0]?.pages[0]?.path ?? indexPage),
      activeMatch: `^/(${section.groups
        .flatMap((group) => group.pages.map((page) => page.path.replaceAll('.', '\\.')))
        .join('|')})$`,
    })),
    sidebar: sidebar(),
    search: { provider: 'local' },
    outline: { level: [2, 3] },
    socialLinks: [{ icon: 'github', link: repository }],
    editLink: { pattern: `${repository}/edit/main/docs/:path`, text: 'Edit this page on GitHub' },
  },
})
