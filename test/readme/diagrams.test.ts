import { execFileSync } from 'node:child_process'
import {
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  type Diagram,
  diagrams,
  forbiddenIn,
  orphans,
  render,
  root,
  staleness,
  stampOf,
} from '../../scripts/render-diagrams.js'
import { chromiumAvailable, chromiumSkipReason, launchChromium } from '../support/chromium.js'

// The docs' diagrams (docs/diagrams/*.mmd) are drawn to committed SVGs by
// scripts/render-diagrams.ts: each SVG must be what its source draws now (its stamp), be shown
// by a page, and hold nothing GitHub will not show.

const all = diagrams()
const read = (path: string) => readFileSync(path, 'utf8')

// Every Markdown page a reader sees: README.md and every .md under docs/.
function pages(): string[] {
  const found = [join(root, 'README.md')]
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith('.md')) found.push(path)
    }
  }
  walk(join(root, 'docs'))
  return found
}

// The images a page shows, as absolute paths: `![alt](relative/path.svg)` and `<img src="…">`.
function imagesOf(page: string): string[] {
  const text = read(page)
  const links = [
    ...text.matchAll(/!\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g),
    ...text.matchAll(/<img\b[^>]*\bsrc="([^"]+)"/g),
  ].map((m) => m[1]!)
  return links
    .filter((link) => !/^[a-z]+:/i.test(link))
    .map((link) => resolve(dirname(page), link.split('#')[0]!))
}

// The words an SVG's text elements hold, sorted: the same labels whatever the line breaks.
function wordsOf(svg: string): string[] {
  return [...svg.matchAll(/<text\b[^>]*>([\s\S]*?)<\/text>/g)]
    .flatMap((m) => m[1]!.replace(/<[^>]*>/g, ' ').split(/\s+/))
    .filter((word) => word !== '')
    .sort()
}

describe('docs/diagrams', () => {
  it('has the five diagrams, each with its SVG', () => {
    expect(all.map((d) => d.name)).toEqual([
      'envelopes',
      'fast-accept-native-reject',
      'rate-limit-window',
      'request-lifecycle',
      'webhook-raw-body',
    ])
    for (const d of all)
      expect(staleness(d), `${d.name}: run npm run docs:diagrams`).toBeUndefined()
    expect(orphans(), 'SVGs in docs/images/diagrams/ without a source').toEqual([])
  })

  it('npm run docs:diagrams -- --check passes, without a browser', () => {
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/render-diagrams.ts', '--check'],
      { cwd: root, encoding: 'utf8', env: { ...process.env, SHAPEGUARD_CHROMIUM: '/nonexistent' } },
    )
    expect(out).toContain(`${all.length} diagrams up to date`)
  })

  describe('a stale SVG is found', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-diagrams-'))
    afterAll(() => rmSync(dir, { recursive: true, force: true }))
    const first = all[0]!
    const copy: Diagram = {
      name: first.name,
      source: join(dir, 'x.mmd'),
      svg: join(dir, 'x.svg'),
    }

    it('when its source changes, and when it is missing', () => {
      copyFileSync(first.source, copy.source)
      copyFileSync(first.svg, copy.svg)
      expect(staleness(copy)).toBeUndefined()
      writeFileSync(copy.source, `${read(first.source)}\n%% one more line\n`)
      expect(staleness(copy)).toBe('its source, mermaid or the render settings changed')
      rmSync(copy.svg)
      expect(staleness(copy)).toBe('no SVG')
    })

    it('but not for a checkout with CRLF line endings', () => {
      writeFileSync(copy.source, read(first.source).replaceAll('\n', '\r\n'))
      expect(stampOf(read(copy.source))).toBe(stampOf(read(first.source)))
    })
  })

  it.each(all.map((d) => [d.name, d] as const))(
    '%s: shows on GitHub (no script, no HTML labels), on its own card, at a sensible size',
    (_name, d) => {
      const svg = read(d.svg)
      const [stamp, rest] = svg.split('\n', 2)
      // The root element's tag and the card drawn first inside it.
      const head = /^<svg\b[^>]*><rect [^>]*\/>/.exec(rest ?? '')?.[0] ?? ''
      expect(stamp).toBe(stampOf(read(d.source)))
      expect(forbiddenIn(svg)).toEqual([])
      expect(svg).not.toMatch(/<foreignObject|<script|javascript:/i)
      // An intrinsic size in pixels, so an <img> shows it at that size or scales it down.
      const size = /^<svg width="(\d+)" height="(\d+)"/.exec(head ?? '')
      expect(size, 'the root <svg> has its width and height first').not.toBeNull()
      const [width, height] = [Number(size![1]), Number(size![2])]
      expect(width).toBeGreaterThan(300)
      expect(width).toBeLessThanOrEqual(960)
      expect(height).toBeLessThanOrEqual(1600)
      expect(head).not.toContain('max-width')
      // The white card behind the drawing: dark text reads on a dark page too.
      expect(head).toMatch(/<rect [^>]*style="fill:#ffffff;stroke:none"\/>/)
      expect(wordsOf(svg).length).toBeGreaterThan(10)
    },
  )

  it('every SVG is shown by a page (README.md or docs/)', () => {
    const shown = new Set(pages().flatMap(imagesOf))
    for (const d of all) expect(shown.has(d.svg), `no page shows ${d.name}.svg`).toBe(true)
  })

  it('every source names the code it is true to, and those files exist', () => {
    for (const d of all) {
      const comments = read(d.source)
        .split('\n')
        .filter((line) => line.trimStart().startsWith('%%'))
        .join('\n')
      const cited = [...comments.matchAll(/\bsrc\/[\w./-]+\.ts\b/g)].map((m) => m[0])
      expect(cited.length, `${d.name}.mmd cites no src/ file`).toBeGreaterThan(0)
      for (const file of cited) {
        expect(() => read(join(root, file)), `${d.name}.mmd cites ${file}`).not.toThrow()
      }
    }
  })
})

describe.skipIf(!chromiumAvailable())(
  `docs/diagrams drawn again in chromium ${chromiumAvailable() ? '' : chromiumSkipReason}`,
  () => {
    it('gives the committed stamp and the same labels', { timeout: 40_000 }, async () => {
      // The quickest to draw; every diagram goes through the same page and settings.
      const d = all.find((x) => x.name === 'rate-limit-window')!
      const browser = await launchChromium()
      try {
        const [drawn] = await render(browser.browser, [{ name: d.name, text: read(d.source) }])
        const committed = read(d.svg)
        expect(drawn!.svg.split('\n', 1)[0]).toBe(committed.split('\n', 1)[0])
        expect(forbiddenIn(drawn!.svg)).toEqual([])
        // Line breaks and widths follow the machine's fonts; the words do not.
        expect(wordsOf(drawn!.svg)).toEqual(wordsOf(committed))
      } finally {
        await browser.close()
      }
    })
  },
)
