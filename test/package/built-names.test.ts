import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'

// The bundler renames a class that refers to itself (`_AppError`); users see the built name in
// `err.name`, `String(err)` and every stack. Checked on the build, ESM and CommonJS.
const root = resolve(import.meta.dirname, '../..')

function run(code: string, type: 'module' | 'commonjs'): string {
  return execFileSync(process.execPath, [`--input-type=${type}`, '-e', code], {
    cwd: root,
    encoding: 'utf8',
  })
}

const probe = `
const e = new AppError('X', 'boom', 400)
class PaymentError extends AppError {}
process.stdout.write(JSON.stringify({
  name: e.name,
  string: String(e),
  stack: e.stack.split('\\n')[0],
  fn: AppError.name,
  sub: new PaymentError('P', 'p', 402).name,
}))`

describe('names in the built package', () => {
  beforeAll(() => {
    if (!existsSync(join(root, 'dist/index.js'))) {
      execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' })
    }
  })

  const expected = {
    name: 'AppError',
    string: 'AppError: boom',
    stack: 'AppError: boom',
    fn: 'AppError',
    sub: 'PaymentError',
  }

  it('AppError is named AppError in the ESM build', () => {
    const out = run(`import { AppError } from './dist/index.js'\n${probe}`, 'module')
    expect(JSON.parse(out)).toEqual(expected)
  })

  it('AppError is named AppError in the CommonJS build', () => {
    const out = run(`const { AppError } = require('./dist/index.cjs')\n${probe}`, 'commonjs')
    expect(JSON.parse(out)).toEqual(expected)
  })
})
