import { readdirSync, readFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'

/**
 * The fenced code blocks of the README and of every guide under docs/, with the markers written
 * on the lines just above each fence.
 *
 * Markers are HTML comments, invisible on GitHub and visible in the source:
 * - `<!-- readme: given app, handler -->` on a `ts` block: the names it uses without defining
 *   them come from test/readme/givens.ts (the block gets `import { app, handler } from …`).
 * - `<!-- readme: example NAME -->` on a `ts` block: the output tests run it under that name.
 * - `<!-- readme: output NAME -->` on a `json` or `text` block: the output test NAME produces it.
 * - `<!-- readme: skip REASON -->`: the block is not checked; the reason is mandatory.
 * A `ts` block is compiled, a `json`/`text` block must be an output, a `sh` block is a command.
 */
export interface ReadmeBlock {
  /** The Markdown file, relative to the repository root (`README.md`, `docs/logging.md`). */
  file: string
  lang: string
  code: string
  /** 1-based line of the opening fence. */
  line: number
  /** The section heading the block sits under. */
  section: string
  given: string[]
  example: string | undefined
  output: string | undefined
  skip: string | undefined
}

export const root = resolve(import.meta.dirname, '../..')

const MARKER = /^<!-- readme: (given|example|output|skip) (.+?) -->$/

/** README.md and every Markdown file under docs/, relative to the root, in a stable order. */
export function docFiles(): string[] {
  const guides = readdirSync(resolve(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => relative(root, resolve(root, 'docs', name)))
    .sort()
  return ['README.md', ...guides]
}

/** The blocks of every file `docFiles()` lists; example and output names are shared by all. */
export function readmeBlocks(): ReadmeBlock[] {
  return docFiles().flatMap((file) => blocksOf(file))
}

/** The blocks of one Markdown file (its text read from the file unless given). */
export function blocksOf(
  file: string,
  text = readFileSync(resolve(root, file), 'utf8'),
): ReadmeBlock[] {
  const lines = text.split('\n')
  const blocks: ReadmeBlock[] = []
  let section = ''
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    if (line.startsWith('#')) section = line.replace(/^#+ /, '')
    const fence = /^```(\w*)$/.exec(line)
    if (fence === null) continue
    const start = i
    const body: string[] = []
    while (++i < lines.length && lines[i] !== '```') body.push(lines[i] ?? '')
    const block: ReadmeBlock = {
      file,
      lang: fence[1] ?? '',
      code: `${body.join('\n')}\n`,
      line: start + 1,
      section,
      given: [],
      example: undefined,
      output: undefined,
      skip: undefined,
    }
    for (let m = start - 1; m >= 0; m--) {
      const marker = MARKER.exec(lines[m] ?? '')
      if (marker === null) break
      const [, kind, value = ''] = marker
      if (kind === 'given') block.given = value.split(',').map((name) => name.trim())
      else if (kind === 'example') block.example = value
      else if (kind === 'output') block.output = value
      else block.skip = value
    }
    blocks.push(block)
  }
  return blocks
}

/** `"README.md:49 (Usage)"`, for test names and failure messages. */
export function where(block: ReadmeBlock): string {
  return `${block.file}:${block.line} (${block.section})`
}
