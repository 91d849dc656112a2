import { resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { type ReadmeBlock, readmeBlocks, root, where } from '../support/readme-blocks.js'
import { inMemoryHost } from '../support/ts-host.js'

// Every `ts` block of the README and the guides in docs/ compiles under the project's strict tsconfig (strict,
// exactOptionalPropertyTypes, noUncheckedIndexedAccess) against the installed @types/express and
// the package's own source (`shapeguard` and its subpaths map to src/ through tsconfig paths).
// Each block is its own module; the markers are described in readme-blocks.ts.

const blocks = readmeBlocks()
const compiled = blocks.filter((b) => b.lang === 'ts' && b.skip === undefined)
const givens = resolve(import.meta.dirname, 'givens.js')

function fileOf(block: ReadmeBlock): string {
  return resolve(import.meta.dirname, `${block.file.replaceAll('/', '_')}.${block.line}.ts`)
}

function sourceOf(block: ReadmeBlock): string {
  const given =
    block.given.length > 0 ? `import { ${block.given.join(', ')} } from '${givens}'\n` : ''
  // `export {}` keeps a block without imports a module, so blocks never share globals.
  return `${given}${block.code}export {}\n`
}

function compile(): Map<string, string[]> {
  const config = ts.readConfigFile(resolve(root, 'tsconfig.json'), ts.sys.readFile)
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root)
  const files = new Map(compiled.map((b) => [fileOf(b), sourceOf(b)]))
  const host = inMemoryHost(options, files)
  const program = ts.createProgram([...files.keys()], options, host)
  const errors = new Map<string, string[]>()
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const file = d.file?.fileName ?? 'global'
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n')
    const line =
      d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0
    errors.set(file, [...(errors.get(file) ?? []), `line ${line}: ${message}`])
  }
  return errors
}

describe('the code blocks of the README and docs/', () => {
  it('are all checked: ts compiled, json and text compared, skips give a reason', () => {
    const unchecked = blocks.filter(
      (b) =>
        b.skip === undefined &&
        !(
          b.lang === 'ts' ||
          b.lang === 'sh' ||
          ((b.lang === 'json' || b.lang === 'text') && b.output)
        ),
    )
    expect(unchecked.map(where)).toEqual([])
    expect(compiled.length).toBeGreaterThanOrEqual(13)
  })

  const errors = compile()

  it('leave no compiler error outside the blocks', () => {
    const files = new Set(compiled.map(fileOf))
    expect([...errors].filter(([file]) => !files.has(file))).toEqual([])
  })

  it.each(compiled.map((b) => [where(b), b] as const))('%s compiles', (_, block) => {
    expect(errors.get(fileOf(block)) ?? []).toEqual([])
  })
})
