import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { extname, resolve } from 'node:path'
import type { DiffFinding } from 'shapeguard/openapi'
import { printable } from '../../shared/printable.js'
import { validateDocument } from '../check/validate-document.js'
import { type Command, type Context, loadOptions, stringOf } from '../command.js'
import { appDocument } from '../document.js'
import { openapiEntry } from '../entries.js'
import { EXIT, UsageError } from '../usage-error.js'
import { type Sides, sarifReport, textReport } from './diff-report.js'

const yamlFile = new Set(['.yaml', '.yml'])
const documentFile = new Set(['.json', ...yamlFile])
const rank = { breaking: 0, warning: 1, info: 2 } as const

/** A document file: JSON read here, YAML through the optional validator that `check` uses. */
async function readDocument(file: string, cwd: string): Promise<unknown> {
  let text: string
  try {
    text = readFileSync(resolve(cwd, file), 'utf8')
  } catch {
    throw new UsageError(`${file}: no such file (paths are relative to ${cwd})`)
  }
  if (yamlFile.has(extname(file).toLowerCase())) return (await validateDocument(text)).doc
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new UsageError(`${file}: not JSON (${(error as Error).message})`)
  }
}

/** The head: a document file, else the app the module exports, documented as `openapi` does. */
async function headDocument(ctx: Context): Promise<{ doc: unknown; cjs: boolean }> {
  if (documentFile.has(extname(ctx.module).toLowerCase()))
    return { doc: await readDocument(ctx.module, ctx.io.cwd), cjs: false }
  const { doc, loaded, warnings } = await appDocument(ctx)
  for (const warning of warnings) ctx.io.err(`warning: ${warning}\n`)
  return { doc, cjs: loaded.cjs }
}

function choice<T extends string>(
  value: string | undefined,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`--${name} must be ${allowed.join(', ')}, not ${value}`)
  return value as T
}

/** `shapeguard diff <base.json> <module|head.json>`: what in the head breaks clients of the base. */
export const diff: Command = {
  operands: ['base.json'],
  moduleOperand: 'module|head.json',
  summary: 'list the changes from a base document that break its clients',
  description:
    'Compares the OpenAPI document <base.json> (JSON, or YAML) with the head: the document of the ' +
    'app <module> exports, or a document file. Each finding names its rule, the JSON pointer of the ' +
    'change and why it breaks (or may break) a client: a removed operation, status or response ' +
    'property, a request property or parameter newly required, an input narrowed or an output ' +
    `widened, a removed media type, added security. Exits ${EXIT.problem} on a breaking finding (or a warning, ` +
    'with --fail-on warning). Text and SARIF show breaking findings and warnings, --info adds the ' +
    'rest; JSON has them all.',
  options: {
    format: { type: 'string', value: 'text|json|sarif', help: 'the output (default: text)' },
    'fail-on': {
      type: 'string',
      value: 'breaking|warning',
      help: `the level that exits ${EXIT.problem} (default: breaking)`,
    },
    info: { type: 'boolean', help: 'list info findings (added operations, optional fields…) too' },
    ...loadOptions,
  },
  async run(ctx) {
    const { values, io } = ctx
    const format = choice(stringOf(values, 'format'), 'format', ['text', 'json', 'sarif'], 'text')
    const failOn = choice(
      stringOf(values, 'fail-on'),
      'fail-on',
      ['breaking', 'warning'],
      'breaking',
    )
    const base = ctx.operands[0]!
    if (!documentFile.has(extname(base).toLowerCase()))
      throw new UsageError(
        `${base}: the base must be a document file (.json, .yaml or .yml), such as shapeguard openapi wrote`,
        true,
      )
    const baseDoc = await readDocument(base, io.cwd)
    const head = await headDocument(ctx)
    const { diffOpenAPI, diffRules } = await openapiEntry(head.cjs)
    let findings: DiffFinding[]
    try {
      findings = diffOpenAPI(baseDoc, head.doc)
    } catch (error) {
      if (error instanceof TypeError)
        throw new UsageError(printable(error.message.replace(/^shapeguard: diffOpenAPI: /, '')))
      // Documents are user files (a pull request's among them): whatever else a malformed one
      // makes go wrong is one line, not a stack trace.
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
      throw new UsageError(
        `${base} → ${ctx.module}: the documents could not be compared (${printable(reason)})`,
      )
    }
    const sides: Sides = {
      base,
      head: ctx.module,
      baseFile: resolve(io.cwd, base),
      headFile: resolve(io.cwd, ctx.module),
    }
    const shown = values.info === true ? findings : findings.filter((f) => f.level !== 'info')
    if (format === 'json')
      io.out(`${JSON.stringify({ base, head: ctx.module, findings }, null, 2)}\n`)
    else if (format === 'sarif') {
      const version: string = createRequire(import.meta.url)('shapeguard/package.json').version
      io.out(`${JSON.stringify(sarifReport(shown, diffRules, sides, io.cwd, version), null, 2)}\n`)
    } else io.out(textReport(shown, findings, sides))
    return findings.some((f) => rank[f.level] <= rank[failOn]) ? EXIT.problem : EXIT.ok
  },
}
