import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readmeBlocks } from '../support/readme-blocks.js'

// The TypeScript setup the README's quick start and docs/getting-started.md promise, checked
// against the built declarations a user installs: a consumer project (its own tsconfig, the
// package linked into its node_modules as npm installs it) type-checks a first guarded route
// under each module resolution the guides name, and under node10 the subpaths do not resolve.

const root = resolve(import.meta.dirname, '../..')
const base = join(root, '.tmp/consumer-tsconfig')

// The README's first route and tsconfig.json, as a user copies them. The route's handle() call
// costs the checker most of a minute on a busy 2-core machine (zod's types), so it is checked
// under the README's settings only; the other settings check the imports.
const readme = readmeBlocks().filter((b) => b.file === 'README.md')
const route = readme.find((b) => b.example === 'quick-start')?.code ?? ''
const tsconfig = readme.find((b) => b.lang === 'json' && b.skip?.includes('consumer-tsconfig'))
const documented = ts.convertCompilerOptionsFromJson(
  JSON.parse(tsconfig?.code ?? '{}').compilerOptions,
  base,
)

// Every entry point resolved, and res.ok and req.id typed on a plain Express handler.
const imports = `import express from 'express'
import { errorHandler, shapeguard } from 'shapeguard'
import { valibotAdapter } from 'shapeguard/adapters/valibot'
import { readEvents } from 'shapeguard/client'
import { serveDocs } from 'shapeguard/openapi'
import { mockRequest } from 'shapeguard/testing'

const app = express()
app.use(shapeguard())
app.get('/plain', (req, res) => res.ok({ data: { id: req.id } }))
app.use('/docs', serveDocs({ openapi: '3.1.0', info: { title: 'Hello', version: '1' }, paths: {} }))
app.use(errorHandler())
export { app, mockRequest, readEvents, valibotAdapter }
`

/** A consumer project: package.json, the package in node_modules, and its files. */
function project(name: string, type: 'module' | 'commonjs', files: Record<string, string>) {
  const dir = join(base, name)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(join(dir, 'node_modules'), { recursive: true })
  // As npm links a local install; express, zod and @types/* come from the checkout's node_modules.
  symlinkSync(root, join(dir, 'node_modules/shapeguard'), 'dir')
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type }))
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text)
  return dir
}

/** The compiler's messages for the project's files under the given options (strict, no emit). */
function check(dir: string, files: string[], options: ts.CompilerOptions): string[] {
  const program = ts.createProgram(
    files.map((f) => join(dir, f)),
    { strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, ...options },
  )
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
}

const { ModuleKind: M, ModuleResolutionKind: R } = ts

describe('a consumer project with the documented TypeScript setup', () => {
  beforeAll(() => {
    if (!existsSync(join(root, 'dist/index.d.ts'))) {
      execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' })
    }
  })

  afterAll(() => {
    rmSync(base, { recursive: true, force: true })
  })

  it("type-checks the README's first route with the README's tsconfig.json", () => {
    expect(documented.errors).toEqual([])
    expect(documented.options.module).toBe(M.NodeNext)
    expect(route).toContain('...handle(')
    const dir = project('route', 'module', { 'app.ts': route })
    expect(check(dir, ['app.ts'], documented.options)).toEqual([])
  }, 400_000)

  it.each([
    ['"module": "nodenext" (ESM)', 'module', { module: M.NodeNext, moduleResolution: R.NodeNext }],
    ['"module": "nodenext" (CommonJS)', 'commonjs', { module: M.NodeNext }],
    ['"module": "node16"', 'module', { module: M.Node16, moduleResolution: R.Node16 }],
    ['"moduleResolution": "bundler"', 'module', { module: M.ESNext, moduleResolution: R.Bundler }],
    ['"module": "preserve"', 'module', { module: M.Preserve }],
  ] as const)('resolves every entry point and types res.ok under %s', (name, type, options) => {
    const dir = project(name.replace(/\W+/g, '-'), type, { 'app.ts': imports })
    expect(check(dir, ['app.ts'], { ...options, esModuleInterop: true })).toEqual([])
  })

  it('under "moduleResolution": "node10" finds the main entry but not the subpaths', () => {
    const dir = project('node10', 'commonjs', { 'app.ts': imports })
    const errors = check(dir, ['app.ts'], {
      module: M.CommonJS,
      moduleResolution: R.Node10,
      esModuleInterop: true,
    })
    expect(errors).toHaveLength(4)
    for (const subpath of ['adapters/valibot', 'client', 'openapi', 'testing']) {
      expect(errors.join('\n')).toContain(`Cannot find module 'shapeguard/${subpath}'`)
    }
  })

  it('types res.ok on every response once any file of the program imports shapeguard', () => {
    const plain = `import express from 'express'
const app = express()
app.get('/plain', (req, res) => res.ok({ data: { id: req.id } }))
`
    const options = { module: M.NodeNext, moduleResolution: R.NodeNext, esModuleInterop: true }
    const alone = project('augment-alone', 'module', { 'plain.ts': plain })
    const missing = check(alone, ['plain.ts'], options)
    expect(missing.some((m) => /Property 'ok' does not exist/.test(m))).toBe(true)
    expect(missing.some((m) => /Property 'id' does not exist/.test(m))).toBe(true)
    const beside = project('augment-beside', 'module', {
      'plain.ts': plain,
      'types.ts': "import type {} from 'shapeguard'\n",
    })
    expect(check(beside, ['plain.ts', 'types.ts'], options)).toEqual([])
  })
})
