import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, posix } from 'node:path'
import type { BrowserContext } from 'playwright-core'
import {
  createMarkdownRenderer,
  type DefaultTheme,
  resolveConfig,
  type SiteConfig,
} from 'vitepress'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compileTemplate } from 'vue/compiler-sfc'
import {
  chromiumAvailable,
  chromiumSkipReason,
  launchChromium,
  type PageWatch,
  problems,
  type TestBrowser,
  watchedPage,
} from '../support/chromium.js'
import {
  cspHash,
  filesOf,
  inlineCode,
  type StaticSite,
  serveStatic,
} from '../support/static-site.js'
import { buildSite, docsDir, removeSite, type SiteBuild } from '../support/vitepress-site.js'

// The docs site (docs/.vitepress, `npm run docs:build`), built once into a temporary folder:
// every page of docs/ is reachable from its navigation and built; its links lead somewhere; and,
// in chromium, its search finds error codes and option names, and its pages render without an
// error, also under a strict Content-Security-Policy.

/** The Markdown pages of docs/ (docs/.vitepress holds the site's code, not pages). */
const mdPages = readdirSync(docsDir, { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.md') && !name.startsWith('.vitepress'))
  .map((name) => name.split('\\').join('/'))
  .sort()

/** A page's URL path on the site: `validation.md` → `/validation`, README.md → `/`. */
function urlOf(page: string): string {
  return page === 'README.md' ? '/' : `/${page.slice(0, -3)}`
}

/** Every link of a sidebar, recursively. */
function linksOf(items: readonly DefaultTheme.SidebarItem[]): string[] {
  return items.flatMap((item) => [...(item.link ? [item.link] : []), ...linksOf(item.items ?? [])])
}

let build: SiteBuild
let config: SiteConfig<DefaultTheme.Config>

beforeAll(async () => {
  build = await buildSite()
  config = await resolveConfig(build.siteRoot, 'build', 'production')
}, 300_000)

afterAll(() => removeSite(build))

describe('the docs site: navigation', () => {
  it('VitePress takes every Markdown file of docs/ as a page, README.md as the index', () => {
    expect([...config.pages].sort()).toEqual(mdPages)
    expect(config.rewrites.map['README.md']).toBe('index.md')
  })

  it('every page but the index is in the sidebar, which a top navigation entry leads to', () => {
    const theme = config.site.themeConfig
    const sidebar = theme.sidebar as DefaultTheme.SidebarMulti
    const everywhere = new Set(
      Object.values(sidebar).flatMap((s) => linksOf(Array.isArray(s) ? s : s.items)),
    )
    const missing = mdPages.filter((page) => page !== 'README.md' && !everywhere.has(urlOf(page)))
    expect(missing).toEqual([])

    // Each page's own sidebar lists it (the reader sees where they are); the index's lists all.
    const home = sidebar['/index.md'] as DefaultTheme.SidebarItem[]
    expect(new Set(linksOf(home))).toEqual(everywhere)
    for (const page of mdPages.filter((p) => p !== 'README.md')) {
      const own = sidebar[`/${page}`]
      expect(own, page).toBeDefined()
      expect(linksOf(Array.isArray(own) ? own : own!.items)).toContain(urlOf(page))
    }

    // Guide / Reference / Recipes / Internals, each leading to a page whose sidebar is its own.
    const nav = (theme.nav ?? []) as DefaultTheme.NavItemWithLink[]
    const texts = nav.map((item) => item.text)
    expect(['Guide', 'Reference', 'Recipes', 'Internals'].filter((t) => texts.includes(t))).toEqual(
      texts,
    )
    expect(texts.slice(0, 2)).toEqual(['Guide', 'Reference'])
    const sectionOf = (link: string) => sidebar[`${link}.md`] as DefaultTheme.SidebarItem[]
    for (const item of nav) {
      const section = sectionOf(item.link)
      expect(section.map((group) => group.text)[0], item.text).toBe(
        item.text === 'Guide' ? 'Guides' : item.text,
      )
    }
    // Every page is in exactly the section the agreed layout gives it.
    const guide = linksOf(sectionOf('/getting-started'))
    expect(guide[0]).toBe('/getting-started')
    expect(guide).toContain('/migration/from-zod-middleware')
    expect(linksOf(sectionOf('/options'))).toEqual(
      expect.arrayContaining(['/options', '/misuse-errors']),
    )
    expect(linksOf(sectionOf('/performance'))[0]).toBe('/performance')
    for (const [folder, first] of [
      ['recipes', 'Recipes'],
      ['internals', 'Internals'],
      ['reference', 'Reference'],
    ] as const) {
      for (const page of mdPages.filter((p) => p.startsWith(`${folder}/`))) {
        expect(sectionOf(urlOf(page))[0]?.text, page).toBe(first)
      }
    }
  })

  it('the build wrote an HTML page for every Markdown page', () => {
    const built = new Set(filesOf(build.outDir))
    const missing = mdPages.filter((page) => {
      const html = page === 'README.md' ? 'index.html' : page.replace(/\.md$/, '.html')
      return !built.has(html)
    })
    expect(missing).toEqual([])
  })
})

describe('the docs site: links', () => {
  it('keeps VitePress dead-link check on (a link to a missing page fails the build)', () => {
    expect(config.userConfig.ignoreDeadLinks ?? false).toBe(false)
  })

  it('every local link of a built page reaches a built file, and its #anchor an id there', () => {
    const pages = filesOf(build.outDir).filter((f) => f.endsWith('.html'))
    const ids = new Map<string, Set<string>>()
    const idsOf = (file: string) => {
      let set = ids.get(file)
      if (set === undefined) {
        const html = readFileSync(join(build.outDir, file), 'utf8')
        set = new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1] ?? ''))
        ids.set(file, set)
      }
      return set
    }
    const fileOf = (path: string): string | null => {
      for (const candidate of path.endsWith('/') ? [`${path}index.html`] : [path, `${path}.html`]) {
        const file = candidate.replace(/^\//, '')
        if (existsSync(join(build.outDir, file)) && file !== '') return file
      }
      return null
    }
    const broken: string[] = []
    for (const page of pages.filter((p) => p !== '404.html')) {
      const html = readFileSync(join(build.outDir, page), 'utf8')
      for (const m of html.matchAll(/\shref="([^"]*)"/g)) {
        const href = (m[1] ?? '').replaceAll('&amp;', '&')
        if (/^[a-z][a-z+.-]*:/i.test(href) || href.startsWith('//')) continue
        const [path = '', anchor] = href.split('#')
        const target =
          path === ''
            ? page
            : fileOf(posix.resolve(`/${dirname(page)}`, decodeURIComponent(path.split('?')[0]!)))
        if (target === null) {
          broken.push(`${page}: ${href}`)
          continue
        }
        if (anchor && target.endsWith('.html') && !idsOf(target).has(decodeURIComponent(anchor))) {
          broken.push(`${page}: ${href} (no id ${anchor})`)
        }
      }
    }
    expect(broken).toEqual([])
  })

  it('a link out of docs/ becomes its file on GitHub; a link inside stays a page', async () => {
    const md = await createMarkdownRenderer(docsDir, config.markdown ?? {})
    const html = md.render(
      [
        'See [the source](../src/index.ts), [install](../README.md#install),',
        '[results](../bench/results/), [a guide](validation.md#pre-parse-guards),',
        '[the index](README.md#moving), [again](./README.md),',
        'and <http://localhost:3000/docs>; `{{ baseUrl }}` and {{ raw }} stay text.',
      ].join('\n'),
      { path: join(docsDir, 'example.md'), relativePath: 'example.md', cleanUrls: true },
    )
    const repo = 'https://github.com/shapeguard/shapeguard'
    expect(html).toContain(`href="${repo}/blob/main/src/index.ts" target="_blank"`)
    expect(html).toContain(`href="${repo}/blob/main/README.md#install" target="_blank"`)
    expect(html).toContain(`href="${repo}/tree/main/bench/results" target="_blank"`)
    expect(html).toContain('href="./validation#pre-parse-guards"')
    expect(html).toContain('href="./#moving"')
    expect(html).toContain('href="./"')
    expect(html).toContain('href="http://localhost:3000/docs" target="_blank"')
    expect(html.startsWith('<div v-pre>')).toBe(true)
  })

  it('text Vue would misread stays text: {{ }}, and tags that are not HTML elements', async () => {
    const md = await createMarkdownRenderer(docsDir, config.markdown ?? {})
    const html = md.render(
      'A <Foo> tag, a <T> generic, <kbd>Ctrl</kbd>, `{{ x }}` and {{ y }}.\n\n<Bar a="1">\n',
      { path: join(docsDir, 'example.md'), relativePath: 'example.md', cleanUrls: true },
    )
    expect(html).toContain('A &lt;Foo&gt; tag, a &lt;T&gt; generic, <kbd>Ctrl</kbd>')
    expect(html).toContain('<p>&lt;Bar a=&quot;1&quot;&gt;')
    // As VitePress compiles a page: the template compiles, and v-pre leaves {{ }} as text.
    const { code, errors } = compileTemplate({
      source: `<div>${html}</div>`,
      filename: 'example.md',
      id: 'example',
    })
    expect(errors).toEqual([])
    expect(code).toContain('{{ y }}')
  })
})

const available = chromiumAvailable()

describe.skipIf(!available)(
  available ? 'the docs site in chromium' : `the docs site in chromium (${chromiumSkipReason})`,
  () => {
    let browser: TestBrowser
    let context: BrowserContext
    let plain: StaticSite
    let strict: StaticSite
    let csp = ''

    beforeAll(async () => {
      const { scripts, styleAttributes } = inlineCode(build.outDir)
      // What VitePress needs beyond 'self': the hashes of its inline scripts (the dark-mode and
      // platform checks before the first paint, the page-hash map); style attributes (shiki's
      // colours on every code token, table column alignment, two of the theme's), allowed by
      // hash; `data:` images (the theme's icons are data: SVGs in its CSS).
      csp = [
        "default-src 'self'",
        `script-src 'self' ${[...scripts].map(cspHash).join(' ')}`,
        "style-src 'self'",
        `style-src-attr 'unsafe-hashes' ${[...styleAttributes].map(cspHash).join(' ')}`,
        "img-src 'self' data:",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ].join('; ')
      plain = await serveStatic(build.outDir)
      strict = await serveStatic(build.outDir, { 'content-security-policy': csp })
      browser = await launchChromium()
      context = await browser.browser.newContext({ viewport: { width: 1280, height: 800 } })
    }, 60_000)

    afterAll(async () => {
      await browser?.close()
      await plain?.close()
      await strict?.close()
    })

    /** A watched page that also records failed requests and error statuses. */
    async function open(site: StaticSite, path: string): Promise<PageWatch & { failed: string[] }> {
      const watch = { ...(await watchedPage(context)), failed: [] as string[] }
      watch.page.on('requestfailed', (request) => {
        watch.failed.push(`${request.url()}: ${request.failure()?.errorText}`)
      })
      watch.page.on('response', (response) => {
        if (response.status() >= 400) watch.failed.push(`${response.url()}: ${response.status()}`)
      })
      await watch.page.goto(`${site.origin}${path}`, { waitUntil: 'load' })
      await hydrated(watch)
      return watch
    }

    /** Waits for the page's Vue app (before, a click on the search button does nothing). */
    async function hydrated(watch: PageWatch): Promise<void> {
      await watch.page.waitForFunction('document.querySelector("#app").__vue_app__ !== undefined')
    }

    /** Opens the search box empty: VitePress keeps the last query in sessionStorage and shows
     * its results again, 200 ms before a new query's, which a loaded machine would read. */
    async function openSearch(page: PageWatch['page'], term: string): Promise<void> {
      await page.evaluate('sessionStorage.clear()')
      await page.locator('#local-search button').click()
      await page.locator('#localsearch-input').fill(term)
    }

    async function search(watch: PageWatch, term: string): Promise<string[]> {
      const { page } = watch
      await openSearch(page, term)
      const results = page.locator('.VPLocalSearchBox a.result')
      await results.first().waitFor({ timeout: 15_000 })
      const hrefs: string[] = []
      for (const link of await results.all()) hrefs.push((await link.getAttribute('href')) ?? '')
      await page.keyboard.press('Escape')
      return hrefs
    }

    it('the index, a guide and the options reference render with no console error or failed request', async () => {
      for (const [path, heading] of [
        ['/', 'shapeguard documentation'],
        ['/validation', 'Validation'],
        ['/options', 'Options reference'],
      ] as const) {
        const watch = await open(plain, path)
        expect(await watch.page.locator('.vp-doc h1').first().textContent()).toContain(heading)
        const own = path === '/' ? '/getting-started' : path
        expect(await watch.page.locator(`.VPSidebar a[href="${own}"]`).count()).toBe(1)
        expect(await watch.page.locator('.VPNavBarMenu').textContent()).toContain('Reference')
        expect({
          path,
          problems: problems(watch),
          failed: watch.failed,
          outside: watch.outside,
        }).toEqual({ path, problems: [], failed: [], outside: [] })
        await watch.page.close()
      }
    }, 60_000)

    it('under a strict CSP, search finds an error code and an option name, with no violation', async () => {
      const code = 'SG_ERR_FACTORY_NOT_CALLED'
      const option = 'maxBufferBytes'
      expect(readFileSync(join(docsDir, 'misuse-errors.md'), 'utf8')).toContain(code)
      expect(readFileSync(join(docsDir, 'options.md'), 'utf8')).toContain(option)
      const watch = await open(strict, '/')
      const codeHits = await search(watch, code)
      expect(codeHits[0]).toBe(`/misuse-errors#${code.toLowerCase()}`)
      const optionHits = await search(watch, option)
      expect(optionHits.some((href) => href.startsWith('/options#'))).toBe(true)
      // Following a result navigates in the page (the router renders the new page's HTML).
      await openSearch(watch.page, code)
      await watch.page.locator('.VPLocalSearchBox a.result').first().click()
      await watch.page.waitForURL(/\/misuse-errors#/)
      await expect
        .poll(() => watch.page.locator('.vp-doc h1').first().textContent())
        .toContain('Misuse errors')
      expect({ problems: problems(watch), failed: watch.failed, outside: watch.outside }).toEqual({
        problems: [],
        failed: [],
        outside: [],
      })
      await watch.page.close()
    }, 60_000)

    it('under a strict CSP, pages render and navigate with no violation; {{ }} shows as written', async () => {
      const watch = await open(strict, '/docs-pages-and-exports')
      expect(await watch.page.locator('.vp-doc').textContent()).toContain('{{baseUrl}}')
      // Dark mode: the switch toggles the root's class.
      const dark = () => watch.page.evaluate('document.documentElement.classList.contains("dark")')
      const before = await dark()
      await watch.page.locator('.VPNavBarAppearance button').click()
      await expect.poll(dark).toBe(!before)
      // A client-side navigation through the sidebar, to a page with code blocks and tables.
      await watch.page.goto(`${strict.origin}/options`)
      await hydrated(watch)
      await watch.page.locator('.VPNavBarMenu a', { hasText: 'Guide' }).click()
      await watch.page.waitForURL(/\/getting-started$/)
      await watch.page.locator('.VPSidebar a', { hasText: 'Validation' }).first().click()
      await watch.page.waitForURL(/\/validation$/)
      await expect
        .poll(() => watch.page.locator('.vp-doc h1').first().textContent())
        .toContain('Validation')
      expect(await watch.page.locator('.vp-doc button.copy').count()).toBeGreaterThan(0)
      expect({ problems: problems(watch), failed: watch.failed, outside: watch.outside }).toEqual({
        problems: [],
        failed: [],
        outside: [],
      })
      expect(csp).not.toContain('unsafe-inline')
      expect(csp).not.toContain('unsafe-eval')
      await watch.page.close()
    }, 60_000)
  },
)
