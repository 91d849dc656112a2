import { existsSync, statSync } from 'node:fs'
import { dirname, relative, resolve, sep } from 'node:path'
import type { MarkdownRenderer } from 'vitepress'

// How the guides, written for GitHub, become site pages without a change to their text.

/** The GitHub page of a repository file or folder: `<repo>/blob/main/<path>` (`tree` for a folder). */
export function githubUrl(repository: string, path: string, isFolder: boolean): string {
  const encoded = path.split('/').map(encodeURIComponent).join('/')
  return `${repository}/${isFolder ? 'tree' : 'blob'}/main/${encoded}`
}

export interface LinkOptions {
  /** The repository's folder (the parent of docs/). */
  readonly root: string
  /** The site's source folder (docs/). */
  readonly srcDir: string
  /** `https://github.com/owner/name`. */
  readonly repository: string
}

/**
 * A relative link out of docs/ (`../src/x.ts`, `../bench/results/y.json`, `../README.md#install`)
 * is a file of the repository, not a page of the site: it becomes the file's GitHub URL, before
 * VitePress checks links (so a link to a missing file outside docs/ still fails the build: it has
 * no GitHub page either). Links inside docs/ are left to VitePress and its dead-link check.
 */
export function repositoryLinks(md: MarkdownRenderer, options: LinkOptions): void {
  md.core.ruler.push('shapeguard_repository_links', (state) => {
    const env = state.env as { realPath?: string; path?: string }
    const file = env.realPath ?? env.path
    if (file === undefined) return
    for (const block of state.tokens) {
      for (const token of block.children ?? []) {
        if (token.type !== 'link_open') continue
        const href = token.attrGet('href')
        if (href === null) continue
        if (/^https?:\/\/(localhost|127\.0\.0\.1)[:/]/.test(href)) {
          // The reader's own server in an example (`http://localhost:3000/docs`), not a page of
          // the site: opened as any external link is, without the dead-link check VitePress
          // gives localhost URLs (it skips a link that already has its target).
          token.attrSet('target', '_blank')
          token.attrSet('rel', 'noreferrer')
          continue
        }
        const out = outsideTarget(href, file, options)
        if (out !== null) token.attrSet('href', out)
      }
    }
  })
}

function outsideTarget(href: string, file: string, options: LinkOptions): string | null {
  if (/^[a-z][a-z+.-]*:/i.test(href) || href.startsWith('#') || href.startsWith('/')) return null
  const hash = href.indexOf('#')
  let path: string
  try {
    path = decodeURIComponent(hash === -1 ? href : href.slice(0, hash))
  } catch {
    return null // a stray `%`: left as written, for the dead-link check to report
  }
  const anchor = hash === -1 ? '' : href.slice(hash)
  const target = resolve(dirname(file), path)
  const inDocs = relative(options.srcDir, target)
  if (!inDocs.startsWith('..') && !inDocs.startsWith(sep)) {
    // docs/README.md is served as the index (config.ts's rewrites): link to it by that name,
    // which VitePress turns into the folder's URL (a `README` page does not exist on the site).
    if (inDocs !== 'README.md') return null
    return `${path.slice(0, -'README.md'.length)}index.md${anchor}`
  }
  const inRepo = relative(options.root, target)
  if (inRepo.startsWith('..') || !existsSync(target)) {
    // Not a file of the repository: left as it is, for VitePress to report as a dead link.
    return null
  }
  const url = githubUrl(
    options.repository,
    inRepo.split(sep).join('/'),
    statSync(target).isDirectory(),
  )
  return url + anchor
}

/**
 * Every page is plain Markdown for GitHub, never a Vue template: its whole body is `v-pre`, so a
 * `{{ … }}` in prose, a table or inline code (Postman's `{{baseUrl}}`, a workflow's
 * `${{ secrets.X }}`) is shown as written instead of being evaluated by Vue.
 */
export function noVueInterpolation(md: MarkdownRenderer): void {
  md.core.ruler.push('shapeguard_v_pre', (state) => {
    const open = new state.Token('html_block', '', 0)
    open.content = '<div v-pre>\n'
    const close = new state.Token('html_block', '', 0)
    close.content = '</div>\n'
    state.tokens.unshift(open)
    state.tokens.push(close)
  })
}

/** The HTML elements a guide may write as HTML (GitHub's allowed set, roughly). */
const htmlElements = new Set(
  (
    'a abbr b bdi bdo blockquote br caption cite code col colgroup dd del details dfn div dl dt ' +
    'em figcaption figure h1 h2 h3 h4 h5 h6 hr i img ins kbd li mark ol p picture pre q rp rt ' +
    'ruby s samp small source span strike strong sub summary sup table tbody td tfoot th thead ' +
    'time tr tt u ul var video wbr'
  ).split(' '),
)

/**
 * A tag in prose that is not an HTML element (`<Foo>`, `<T>`, `<token>`) would reach Vue as an
 * unknown component or an unclosed element and fail the page; GitHub does not show it as a tag
 * either. It is shown as text instead. Comments (`<!-- readme: … -->`) and HTML elements stay.
 */
export function unknownTagsAsText(md: MarkdownRenderer): void {
  const unknown = (html: string) => {
    const tag = /^<\/?([A-Za-z][\w-]*)/.exec(html.trimStart())
    return tag !== null && !htmlElements.has(tag[1]!.toLowerCase())
  }
  md.core.ruler.push('shapeguard_unknown_tags', (state) => {
    for (const token of state.tokens) {
      if (token.type === 'html_block' && unknown(token.content)) {
        token.type = 'paragraph_text'
        token.content = md.utils.escapeHtml(token.content)
      }
      for (const child of token.children ?? []) {
        if (child.type === 'html_inline' && unknown(child.content)) child.type = 'text'
      }
    }
  })
  md.renderer.rules.paragraph_text = (tokens, idx) => `<p>${tokens[idx]!.content}</p>\n`
}
