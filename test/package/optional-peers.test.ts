import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'

// Importing the main entry loads none of the optional peers. Checked on the built
// package, ESM and CommonJS, in fresh processes; a subpath that needs its peer is the control.
const root = resolve(import.meta.dirname, '../..')
const dist = join(root, 'dist')
const peers = [
  'valibot',
  'yup',
  'winston',
  'pino',
  'ioredis',
  'redis',
  '@redis',
  'swagger-ui-dist',
  '@scalar',
  'redoc',
]

/** Imports an ESM file with a resolve hook that fails on any optional peer; returns stderr or ''. */
function importEsm(file: string): string {
  const hooks = `
const banned = new RegExp('^(${peers.join('|')})(/|$)')
export async function resolve(specifier, context, next) {
  if (banned.test(specifier)) throw new Error('optional peer loaded: ' + specifier)
  return next(specifier, context)
}`
  const code = `
import { register } from 'node:module'
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}))
try { await import(${JSON.stringify(pathToFileURL(file).href)}) }
catch (e) { process.stdout.write(String(e.message)); process.exitCode = 0 }`
  return execFileSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: root,
    encoding: 'utf8',
  })
}

/** Requires a CommonJS file; returns the optional peers found in `require.cache`. */
function requireCjs(file: string): string[] {
  const code = `
require(${JSON.stringify(file)})
const peers = ${JSON.stringify(peers)}
const loaded = peers.filter((p) => Object.keys(require.cache).some((k) => k.includes('/node_modules/' + p + '/')))
process.stdout.write(JSON.stringify(loaded))`
  return JSON.parse(execFileSync(process.execPath, ['-e', code], { cwd: root, encoding: 'utf8' }))
}

describe('optional peers', () => {
  beforeAll(() => {
    if (!existsSync(join(dist, 'index.js')) || !existsSync(join(dist, 'index.cjs'))) {
      execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' })
    }
  })

  it('are not loaded by importing the main entry (ESM)', () => {
    expect(importEsm(join(dist, 'index.js'))).toBe('')
  })

  it('are not loaded by requiring the main entry (CommonJS)', () => {
    expect(requireCjs(join(dist, 'index.cjs'))).toEqual([])
  })

  it('are loaded by their own subpath (the check can fail)', () => {
    expect(importEsm(join(dist, 'adapters/valibot.js'))).toMatch(/optional peer loaded: valibot/)
    expect(importEsm(join(dist, 'adapters/yup.js'))).toMatch(/optional peer loaded: yup/)
    expect(requireCjs(join(dist, 'adapters/valibot.cjs'))).toEqual(['valibot'])
    expect(requireCjs(join(dist, 'adapters/yup.cjs'))).toEqual(['yup'])
  })

  it("are not loaded by the redis subpath: the client is the caller's", () => {
    expect(importEsm(join(dist, 'adapters/redis.js'))).toBe('')
    expect(requireCjs(join(dist, 'adapters/redis.cjs'))).toEqual([])
  })

  it('fast-check is loaded by arbitrary() only, never on import, with an error naming it when missing', () => {
    for (const file of ['testing.cjs', 'testing.js']) {
      const code = `
const Module = require('node:module')
const resolve = Module._resolveFilename
Module._resolveFilename = function (request, ...rest) {
  if (request === 'fast-check') {
    const e = new Error("Cannot find module 'fast-check'")
    e.code = 'MODULE_NOT_FOUND'
    throw e
  }
  return resolve.call(this, request, ...rest)
}
;(async () => {
  const t = ${JSON.stringify(file)}.endsWith('.cjs')
    ? require(${JSON.stringify(join(dist, file))})
    : await import(${JSON.stringify(pathToFileURL(join(dist, file)).href)})
  const loaded = Object.keys(require.cache).some((k) => k.includes('/node_modules/fast-check/'))
  let message = ''
  try { t.arbitrary(require('zod').string()) } catch (e) { message = e.message }
  process.stdout.write(JSON.stringify({ loaded, message }))
})()`
      const out = JSON.parse(
        execFileSync(process.execPath, ['-e', code], { cwd: root, encoding: 'utf8' }),
      )
      expect(out.loaded).toBe(false)
      expect(out.message).toMatch(
        /needs the optional package "fast-check".*npm install -D fast-check/,
      )
    }
  })
})
