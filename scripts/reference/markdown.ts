import { execFileSync } from 'node:child_process'
import { dirname, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

// Markdown pieces the reference generators share, written as Biome formats Markdown (docs/ is
// checked by `biome check`), so a generated page is already formatted.

/** GitHub's anchor of a heading (as test/readme/links.test.ts computes it). */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

/** The anchors of a page's headings, as GitHub names them (`-1`, `-2` for repeats). */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  let fenced = false
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced
    const heading = fenced ? null : /^#{1,6} (.+)$/.exec(line)
    if (heading === null) continue
    const base = anchorOf(heading[1] ?? '')
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count === 0 ? base : `${base}-${count}`)
  }
  return anchors
}

/** A code span; one holding a backtick is fenced with two (padded where it starts or ends with one). */
export function code(text: string): string {
  if (!text.includes('`')) return `\`${text}\``
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : ''
  return `\`\`${pad}${text}${pad}\`\``
}

// Characters a terminal (and Biome's table layout) shows two columns wide: East Asian, emoji.
const wide =
  /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1FAFF}\u{20000}-\u{3FFFD}]/u

function width(text: string): number {
  let n = 0
  for (const c of text) n += wide.test(c) ? 2 : 1
  return n
}

/** A table as Biome formats Markdown: cells padded to the column's width (at least 3), `|` escaped. */
export function table(head: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const cells = [head, ...rows].map((row) => row.map((cell) => cell.replaceAll('|', '\\|')))
  const widths = head.map((_, i) => Math.max(3, ...cells.map((row) => width(row[i] ?? ''))))
  const line = (row: readonly string[]) =>
    `| ${row.map((cell, i) => cell + ' '.repeat((widths[i] ?? 0) - width(cell))).join(' | ')} |`
  const [first = [], ...rest] = cells
  return [line(first), line(widths.map((w) => '-'.repeat(w))), ...rest.map(line)]
}

/** `a`, `a and b`, `a, b and c`. */
export function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}

/** The comment under a generated page's title: where it comes from, how to rewrite it. */
export function generatedNote(source: string): string {
  return `<!-- Written by \`npm run docs:reference\` from ${source}: edit the source, not this page. -->`
}

/** Whether the module at `url` is the script node was started with (not an import of it). */
export function isMain(url: string): boolean {
  return process.argv[1] !== undefined && url === pathToFileURL(process.argv[1]).href
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/**
 * A page as Biome formats it (docs/ is checked by `biome check`): tables padded, the code of `ts`
 * blocks wrapped at the line width. `path` is where the page goes, for Biome's settings.
 */
export function formatted(markdown: string, path: string): string {
  return execFileSync(
    resolve(root, 'node_modules/.bin/biome'),
    ['format', `--stdin-file-path=${path}`],
    {
      cwd: root,
      input: markdown,
      encoding: 'utf8',
    },
  )
}
