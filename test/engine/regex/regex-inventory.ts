import { readdirSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import ts from 'typescript'
import * as v from 'valibot'
import * as y from 'yup'
import { z } from 'zod'
import { regexes as zodRegexes } from 'zod/v4/core'

/** A regular expression found in a library or in our source, and where. */
export interface FoundRegex {
  readonly where: string
  readonly source: string
  readonly flags: string
}

const require = createRequire(import.meta.url)
const root = join(dirname(require.resolve('zod')), '..', '..')

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f)
    return statSync(p).isDirectory() ? files(p, ext) : ext.test(f) ? [p] : []
  })
}

/** Every regular-expression literal in a source file (JavaScript or TypeScript). */
function literals(file: string): FoundRegex[] {
  const text = readFileSync(file, 'utf8')
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false)
  const out: FoundRegex[] = []
  const where = relative(root, file).replace(/^node_modules\//, '')
  const visit = (n: ts.Node) => {
    if (n.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const t = (n as ts.RegularExpressionLiteral).text
      const end = t.lastIndexOf('/')
      out.push({ where, source: t.slice(1, end), flags: t.slice(end + 1) })
    }
    ts.forEachChild(n, visit)
  }
  visit(sf)
  return out
}

const found = (where: string, re: unknown): FoundRegex[] =>
  re instanceof RegExp ? [{ where, source: re.source, flags: re.flags }] : []

// Exports that parse, configure or run rather than build a schema or an action.
const notBuilders =
  /^(set|delete|get|parse|safe|assert|is|config|forward|flatten|summarize|unwrap|decode|encode|treeify|prettify|format|registry|globalRegistry|toJSONSchema|fromJSONSchema|locales)/i

function attempt<T>(f: () => T): T | undefined {
  try {
    const r = f()
    // A promise (an async parse) is not what is looked for; never leave it unhandled.
    if (r instanceof Promise) r.catch(() => {})
    return r
  } catch {
    return undefined
  }
}

// zod: its exported regexes (the factories called with the options its formats pass), and the
// pattern of every format schema and string check zod builds.
function zodPatterns(): FoundRegex[] {
  const out: FoundRegex[] = []
  const calls: Record<string, unknown[][]> = {
    uuid: [[], [4], [7]],
    mac: [[], ['-'], ['.']],
    nanoidOfLength: [[21]],
    string: [[], [{ minimum: 1, maximum: 10 }]],
    time: [[{}], [{ precision: 3 }], [{ precision: -1 }]],
    datetime: [[{}], [{ offset: true, local: true }], [{ precision: 3 }], [{ precision: -1 }]],
  }
  for (const [name, value] of Object.entries(zodRegexes)) {
    out.push(...found(`zod regexes.${name}`, value))
    if (typeof value === 'function')
      for (const args of calls[name] ?? [[]])
        out.push(
          ...found(
            `zod regexes.${name}()`,
            attempt(() => (value as Function)(...args)),
          ),
        )
  }
  const schemas = [
    ...Object.entries(z)
      .filter(([name, f]) => typeof f === 'function' && !notBuilders.test(name))
      .map(([name, f]) => [name, () => (f as () => unknown)()] as const),
    ...Object.entries(z.iso).map(
      ([name, f]) => [`iso.${name}`, () => (f as () => unknown)()] as const,
    ),
    ['endsWith', () => z.string().endsWith('.io')],
    ['startsWith', () => z.string().startsWith('ab')],
    ['includes', () => z.string().includes('ab', { position: 2 })],
    ['lowercase', () => z.string().lowercase()],
    ['uppercase', () => z.string().uppercase()],
    ['hash', () => z.hash('sha256')],
  ] as const
  for (const [name, make] of schemas) {
    const s = attempt(make) as { _zod?: { def?: Record<string, any> } } | undefined
    const def = s?._zod?.def
    if (!def) continue
    out.push(...found(`zod ${name}`, def.pattern))
    for (const c of def.checks ?? []) out.push(...found(`zod ${name}`, c._zod?.def?.pattern))
  }
  return out
}

// valibot: every exported RegExp, and the requirement of every action its exports build.
function valibotPatterns(): FoundRegex[] {
  const out: FoundRegex[] = []
  for (const [name, value] of Object.entries(v)) {
    out.push(...found(`valibot ${name}`, value))
    if (typeof value !== 'function' || notBuilders.test(name)) continue
    const made = attempt(() => (value as () => unknown)()) as { requirement?: unknown } | undefined
    out.push(...found(`valibot ${name}()`, made?.requirement))
  }
  return out
}

// yup keeps its patterns to itself: the ones its string tests carry.
function yupPatterns(): FoundRegex[] {
  const s = y.string()
  return [s.email(), s.url(), s.uuid(), s.datetime()].flatMap((schema) =>
    schema.tests.flatMap((t) =>
      found(`yup string().${t.OPTIONS?.name}()`, t.OPTIONS?.params?.regex),
    ),
  )
}

/**
 * Every regular expression zod, valibot, yup and ajv's run-time helpers contain or build, and
 * every literal in our own `src/`: from the libraries' exports and schemas, and from the literals
 * in their shipped source, so an upgrade that adds one is seen.
 */
export function libraryRegexes(): FoundRegex[] {
  const zodDir = dirname(require.resolve('zod/v4/core'))
  const sources = [
    require.resolve('yup'),
    require.resolve('valibot'),
    ...files(zodDir, /\.js$/),
    ...files(join(zodDir, '..', 'classic'), /\.js$/),
    ...files(join(dirname(require.resolve('ajv')), 'runtime'), /\.js$/),
  ]
  return [
    ...zodPatterns(),
    ...valibotPatterns(),
    ...yupPatterns(),
    ...sources.flatMap(literals),
    ...files(join(root, 'src'), /\.ts$/).flatMap(literals),
  ]
}
