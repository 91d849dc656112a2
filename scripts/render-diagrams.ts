// Renders the docs' diagrams: each docs/diagrams/<name>.mmd (Mermaid) to
// docs/images/diagrams/<name>.svg, in a headless chromium with the installed mermaid bundle, no
// network (`npm run docs:diagrams`). The SVG's first line stamps what it was drawn from (the
// source's SHA-256, mermaid's version, the render settings' SHA-256), so only a diagram whose
// stamp no longer matches is drawn again; `--check` compares stamps only (no browser) and exits 1
// when an SVG is stale, missing or has no source. `--force` redraws every diagram; names given
// (`npm run docs:diagrams -- lifecycle`) limit the run to those diagrams.
// test/readme/diagrams.test.ts runs the check, and redraws one diagram to compare.
//
// The pictures must show on GitHub, where an SVG is an <img>: no script runs, and HTML labels
// (<foreignObject>) may not display, so labels are SVG <text> (`htmlLabels: false`) and a drawing
// holding either is refused. They must read in light and dark pages alike: each is drawn on its
// own white card (a rect behind the drawing, dark text and strokes), as a photo would be, rather
// than on a transparent ground whose dark strokes vanish on a dark page. Widths and heights are
// the drawing's own, in pixels, so a page shows them at that size or scales them down to fit.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser } from 'playwright-core'

export const root = resolve(import.meta.dirname, '..')
export const sourceDir = join(root, 'docs/diagrams')
export const outputDir = join(root, 'docs/images/diagrams')
const mermaidDir = join(root, 'node_modules/mermaid')
const bundlePath = join(mermaidDir, 'dist/mermaid.min.js')
const executablePath = process.env.SHAPEGUARD_CHROMIUM ?? '/usr/bin/chromium'

/** The installed mermaid's version, stamped on every SVG it draws. */
export const mermaidVersion: string = JSON.parse(
  readFileSync(join(mermaidDir, 'package.json'), 'utf8'),
).version

// Arial's metrics (Liberation Sans has the same): text is measured when drawn and shown wherever
// the page is read, so the font must be one nearly every reader has, or one with its widths.
const font = 'Arial, "Liberation Sans", Helvetica, sans-serif'

/**
 * The settings every diagram is drawn with (a diagram's front matter may add its own). Bump
 * `revision` when the post-processing below changes: it is part of the stamp.
 */
export const renderSettings = {
  revision: 2,
  mermaid: {
    startOnLoad: false,
    securityLevel: 'strict',
    deterministicIds: true,
    // The rounded shapes are drawn by roughjs, randomly unless seeded: the same source, the same bytes.
    handDrawnSeed: 1,
    htmlLabels: false,
    fontFamily: font,
    theme: 'base',
    themeVariables: {
      fontFamily: font,
      fontSize: '15px',
      background: '#ffffff',
      primaryColor: '#eef3fb',
      primaryBorderColor: '#4a6fa5',
      primaryTextColor: '#1f2328',
      secondaryColor: '#f6f8fa',
      tertiaryColor: '#ffffff',
      lineColor: '#57606a',
      textColor: '#1f2328',
      noteBkgColor: '#fff8c5',
      noteBorderColor: '#9a6700',
      noteTextColor: '#1f2328',
      clusterBkg: '#f6f8fa',
      clusterBorder: '#8c959f',
      edgeLabelBackground: '#ffffff',
    },
    flowchart: {
      htmlLabels: false,
      useMaxWidth: false,
      curve: 'basis',
      padding: 12,
      wrappingWidth: 400,
      nodeSpacing: 40,
      rankSpacing: 36,
    },
    sequence: { useMaxWidth: false, mirrorActors: false, wrap: false },
    class: { htmlLabels: false, useMaxWidth: false, hideEmptyMembersBox: true },
    block: { useMaxWidth: false },
  },
} as const

/** The card behind each drawing: readable on a light and on a dark page. */
const CARD = '#ffffff'

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

// Line endings are the source's only accidental difference (a checkout with autocrlf).
const normalised = (source: string) => source.replaceAll('\r\n', '\n')

/** The first line of the SVG drawn from `source` by this mermaid with these settings. */
export function stampOf(source: string): string {
  const settings = sha256(JSON.stringify(renderSettings)).slice(0, 16)
  return `<!-- render-diagrams: source sha256:${sha256(normalised(source))} mermaid ${mermaidVersion} settings ${settings} -->`
}

/** A diagram: its name, where its source is and where its SVG goes. */
export interface Diagram {
  readonly name: string
  readonly source: string
  readonly svg: string
}

/** Every diagram with a source, in name order. */
export function diagrams(): Diagram[] {
  if (!existsSync(sourceDir)) return []
  return readdirSync(sourceDir)
    .filter((file) => file.endsWith('.mmd'))
    .sort()
    .map((file) => {
      const name = basename(file, '.mmd')
      return { name, source: join(sourceDir, file), svg: join(outputDir, `${name}.svg`) }
    })
}

/** Why a diagram's SVG must be drawn again, or undefined when it is up to date. */
export function staleness(diagram: Diagram): string | undefined {
  if (!existsSync(diagram.svg)) return 'no SVG'
  const firstLine = readFileSync(diagram.svg, 'utf8').split('\n', 1)[0]
  const expected = stampOf(readFileSync(diagram.source, 'utf8'))
  if (firstLine === expected) return undefined
  return firstLine?.startsWith('<!-- render-diagrams:')
    ? 'its source, mermaid or the render settings changed'
    : 'no stamp'
}

/** SVGs in docs/images/diagrams/ that no source draws. */
export function orphans(): string[] {
  if (!existsSync(outputDir)) return []
  const drawn = new Set(diagrams().map((d) => `${d.name}.svg`))
  return readdirSync(outputDir)
    .filter((file) => file.endsWith('.svg') && !drawn.has(file))
    .sort()
}

/** What a drawing must not hold to show on GitHub (scripts are stripped, HTML labels may be). */
export function forbiddenIn(svg: string): string[] {
  const found: string[] = []
  if (/<script\b/i.test(svg)) found.push('<script>')
  if (/<foreignObject\b/i.test(svg)) found.push('<foreignObject>')
  if (/\son[a-z]+\s*=/i.test(svg)) found.push('an on… event attribute')
  return found
}

/**
 * The SVG mermaid drew, made a file: the stamp first, the drawing's own size in pixels (no
 * `max-width` style, no 100% width, so an <img> has an intrinsic size), a white card behind it.
 */
export function finish(svg: string, source: string, name: string): string {
  const forbidden = forbiddenIn(svg)
  if (forbidden.length > 0) {
    throw new Error(`${name}: mermaid drew ${forbidden.join(' and ')}, which GitHub will not show`)
  }
  const open = /^<svg\b[^>]*>/.exec(svg)
  const viewBox = open && /\sviewBox="([^"]+)"/.exec(open[0])
  if (open === null || viewBox === null) throw new Error(`${name}: mermaid drew no <svg viewBox>`)
  const [x, y, w, h] = viewBox[1]!
    .trim()
    .split(/[\s,]+/)
    .map(Number) as [number, number, number, number]
  const size = (n: number) => String(Math.ceil(n))
  const tag = open[0]
    .replace(/\s(width|height)="[^"]*"/g, '')
    .replace(/\sstyle="[^"]*"/, '')
    .replace(/^<svg\b/, `<svg width="${size(w)}" height="${size(h)}"`)
  // Coordinates to two decimals: the rounded shapes' paths are otherwise most of the file.
  const rest = svg.slice(open[0].length).replace(/(-?\d+\.\d\d)\d+/g, '$1')
  const card = `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="6" style="fill:${CARD};stroke:none"/>`
  return `${stampOf(source)}\n${tag}${card}${rest}\n`
}

/** A headless chromium with no network, as the tests launch it. */
export async function launchBrowser(): Promise<Browser> {
  const { chromium } = await import('playwright-core')
  return chromium.launch({
    executablePath,
    timeout: 30_000,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  })
}

/** One drawing: the finished SVG and how long mermaid took to draw it in the page. */
export interface Drawn {
  readonly svg: string
  readonly ms: number
}

/**
 * Draws each source with mermaid in one page of `browser`: the bundle is loaded from
 * node_modules, every request the page would make is refused. Returns the finished SVGs.
 */
export async function render(
  browser: Browser,
  sources: readonly { readonly name: string; readonly text: string }[],
): Promise<Drawn[]> {
  const page = await browser.newPage()
  try {
    await page.route('**/*', (route) => route.abort('blockedbyclient'))
    await page.setContent(
      '<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>',
    )
    await page.addScriptTag({ content: readFileSync(bundlePath, 'utf8') })
    const out: Drawn[] = []
    for (const { name, text } of sources) {
      const started = performance.now()
      // A string, run in the page (the tsconfig has no DOM types).
      const drawn = await page.evaluate(
        `(async ([config, id, text]) => {
          globalThis.mermaid.initialize(config)
          const { svg } = await globalThis.mermaid.render(id, text)
          return svg
        })(${JSON.stringify([{ ...renderSettings.mermaid, deterministicIDSeed: name }, `sg-${name}`, normalised(text)])})`,
      )
      out.push({ svg: finish(drawn as string, text, name), ms: performance.now() - started })
    }
    return out
  } finally {
    await page.close()
  }
}

async function main(args: readonly string[]): Promise<number> {
  const check = args.includes('--check')
  const force = args.includes('--force')
  const names = args.filter((a) => !a.startsWith('--'))
  const all = diagrams()
  const unknown = names.filter((n) => !all.some((d) => d.name === n))
  if (unknown.length > 0) {
    console.error(`render-diagrams: no docs/diagrams/${unknown[0]}.mmd`)
    return 2
  }
  const chosen = names.length === 0 ? all : all.filter((d) => names.includes(d.name))
  const stale = chosen
    .map((d) => ({ d, why: force ? 'forced' : staleness(d) }))
    .filter((s): s is { d: Diagram; why: string } => s.why !== undefined)
  const rel = (p: string) => relative(root, p)
  if (check) {
    for (const { d, why } of stale) console.error(`${rel(d.svg)} is stale (${why})`)
    for (const file of orphans()) console.error(`docs/images/diagrams/${file} has no source`)
    const bad = stale.length + orphans().length
    if (bad > 0) {
      console.error('render-diagrams: run npm run docs:diagrams')
      return 1
    }
    console.log(`render-diagrams: ${all.length} diagrams up to date`)
    return 0
  }
  if (stale.length === 0) {
    console.log(`render-diagrams: ${chosen.length} diagrams up to date, nothing to draw`)
    return 0
  }
  const started = performance.now()
  const browser = await launchBrowser()
  try {
    mkdirSync(outputDir, { recursive: true })
    const sources = stale.map(({ d }) => ({ name: d.name, text: readFileSync(d.source, 'utf8') }))
    const drawn = await render(browser, sources)
    stale.forEach(({ d, why }, i) => {
      writeFileSync(d.svg, drawn[i]!.svg)
      console.log(`${rel(d.svg)}: drawn (${why}) in ${Math.round(drawn[i]!.ms)} ms`)
    })
  } finally {
    await browser.close()
  }
  console.log(
    `render-diagrams: ${stale.length} drawn in ${Math.round(performance.now() - started)} ms (chromium included)`,
  )
  for (const file of orphans()) console.warn(`docs/images/diagrams/${file} has no source`)
  return 0
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err)
      process.exit(1)
    },
  )
}
