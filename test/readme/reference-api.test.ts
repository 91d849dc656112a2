import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import ts from 'typescript'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  type ApiExport,
  apiReference,
  exampleModule,
  outputPath,
  readExports,
} from '../../scripts/reference/api.js'
import { examples } from '../../scripts/reference/api-examples.js'
import { root } from '../support/readme-blocks.js'
import { inMemoryHost } from '../support/ts-host.js'

// docs/reference/api.md is generated from the entry points (scripts/reference/api.ts): it must be
// what the generator writes now, every export must have an example, no example may name what is
// not exported, and every example compiles under the project's strict tsconfig.

let all: ApiExport[]
beforeAll(() => {
  all = readExports()
}, 120_000)

const givens = resolve(import.meta.dirname, 'api-givens.js')

describe('docs/reference/api.md', () => {
  it('is what `npm run docs:reference` generates from the entry points', () => {
    expect(
      readFileSync(outputPath, 'utf8'),
      'docs/reference/api.md is stale: run npm run docs:reference',
    ).toBe(apiReference(all))
  }, 60_000)

  it('has an example for every export, and none for a name no subpath exports', () => {
    const names = new Set(all.map((e) => e.name))
    expect([...names].filter((n) => examples[n] === undefined)).toEqual([])
    expect(Object.keys(examples).filter((n) => !names.has(n))).toEqual([])
  })

  it('has examples that compile under the strict tsconfig, all in one program', () => {
    const config = ts.readConfigFile(resolve(root, 'tsconfig.json'), ts.sys.readFile)
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root)
    const first = all.filter((e) => e.sameAs === undefined)
    const files = new Map(
      first.map((e) => [
        resolve(import.meta.dirname, `api-example.${e.name}.ts`),
        exampleModule(e, all, givens),
      ]),
    )
    const program = ts.createProgram([...files.keys()], options, inMemoryHost(options, files))
    const errors = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file !== undefined && files.has(d.file.fileName))
      .map((d) => {
        const name = /api-example\.(\w+)\.ts$/.exec(d.file?.fileName ?? '')?.[1]
        return `${name}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')} in ${examples[name ?? '']}`
      })
    expect(errors).toEqual([])
  }, 120_000)
})
