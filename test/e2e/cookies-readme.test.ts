import { mkdirSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import signature from 'cookie-signature'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configureLogger } from '../../src/index.js'
import { hosts } from '../support/e2e.js'
import { readmeBlocks, root } from '../support/readme-blocks.js'

// The cookies example of docs/validation.md runs as written, on Express 4 and 5, and answers the
// guide's curl line as the guide shows.

const SECRET = 'readme-cookie-secret'
const blocks = readmeBlocks()
const tmp = resolve(root, '.tmp/readme')

beforeAll(() => {
  configureLogger({ silent: true })
  process.env.COOKIE_SECRET = SECRET
})

afterAll(() => {
  delete process.env.COOKIE_SECRET
})

function block(kind: 'example' | 'output', name: string) {
  const found = blocks.find((b) => b[kind] === name)
  if (found === undefined) throw new Error(`no block is marked ${kind} ${name}`)
  return found
}

// The Cookie header of the curl line just above the output block.
function curlCookie(): string {
  const output = block('output', 'cookies-422')
  const curl = blocks
    .filter((b) => b.file === output.file && b.lang === 'sh' && b.line < output.line)
    .at(-1)
  const header = curl?.code.match(/-H 'cookie: ([^']+)'/)?.[1]
  if (header === undefined) throw new Error('no curl line with a cookie header above cookies-422')
  return header
}

async function example(host: string) {
  const code = block('example', 'cookies')
    .code.replace(/from 'shapeguard'/g, `from '${root}/src/index.ts'`)
    .replace(/from 'express'/g, `from '${host === 'express 4' ? 'express4' : 'express'}'`)
  mkdirSync(tmp, { recursive: true })
  const file = resolve(tmp, `cookies-${host.replace(' ', '')}.ts`)
  writeFileSync(file, `${code}export { app }\n`)
  return (await import(/* @vite-ignore */ file)).app
}

describe.each(hosts)('%s', (host) => {
  it('cookies-422: the curl line with a forged session answers what the guide shows', async () => {
    const app = await example(host)
    const forged = await request(app).get('/me').set('Cookie', curlCookie())
    expect(forged.status).toBe(422)
    expect(forged.body).toEqual(JSON.parse(block('output', 'cookies-422').code))

    const session = encodeURIComponent(`s:${signature.sign('a1b2c3d4e5', SECRET)}`)
    const signed = await request(app).get('/me').set('Cookie', `session=${session}; theme=dark`)
    expect([signed.status, signed.body.data]).toEqual([200, { theme: 'dark' }])
  })
})
