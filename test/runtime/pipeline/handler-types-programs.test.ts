import { resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { inMemoryHost } from '../../support/ts-host.js'

// `req.files`, `req.cookies` and `req.signedCookies` take the route's types in a program of a user
// without cookie-parser's and multer's types (Express alone types `cookies: any`) and in one with
// them (multer adds its own `files`). The project's own program holds every test file, so it would
// see cookie-parser's types whatever this test checks: each program here is built apart.

const root = resolve(import.meta.dirname, '../../..')
const fixture = resolve(import.meta.dirname, 'typed-request.fixture.ts')
const plugins = resolve(import.meta.dirname, 'typed-request.plugins.ts')

const source = `import type { Request } from 'express'
import * as z from 'zod'
import { file, handle } from '../../../src/index.js'

type IsAny<T> = 0 extends 1 & T ? true : false
const no = false as const

const Theme = z.object({ theme: z.enum(['dark', 'light']) })
handle({ cookies: Theme, signedCookies: z.object({ sid: z.string() }) }, (req) => {
  const cookies: IsAny<typeof req.cookies> = no
  const theme: 'dark' | 'light' = req.cookies.theme
  const signed: IsAny<typeof req.signedCookies> = no
  const sid: string = req.signedCookies.sid
  // @ts-expect-error not declared by the route
  req.cookies.other
  const asExpress: Request = req
})

handle({ files: { avatar: file(), photos: file.many() } }, (req) => {
  const files: IsAny<typeof req.files> = no
  const name: string = req.files.avatar.name
  const count: number = req.files.photos.length
  const exact: typeof req.files = { avatar: req.files.avatar, photos: req.files.photos }
})
`

function diagnostics(withPlugins: boolean): string[] {
  const config = ts.readConfigFile(resolve(root, 'tsconfig.json'), ts.sys.readFile)
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root)
  const files = new Map([
    [fixture, source],
    [
      plugins,
      '/// <reference types="cookie-parser" />\n/// <reference types="multer" />\nexport {}\n',
    ],
  ])
  const host = inMemoryHost(options, files)
  const program = ts.createProgram(withPlugins ? [fixture, plugins] : [fixture], options, host)
  const loaded = (pkg: string) =>
    program.getSourceFiles().some((f) => f.fileName.includes(`/@types/${pkg}/`))
  expect([loaded('cookie-parser'), loaded('multer')]).toEqual([withPlugins, withPlugins])
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const line =
      d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0
    return `${d.file?.fileName ?? 'global'}:${line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`
  })
}

describe('the route types of req.files, req.cookies and req.signedCookies', () => {
  it('win in a program without cookie-parser and multer types', () => {
    expect(diagnostics(false)).toEqual([])
  }, 120_000)

  it('win in a program with cookie-parser and multer types', () => {
    expect(diagnostics(true)).toEqual([])
  }, 120_000)
})
