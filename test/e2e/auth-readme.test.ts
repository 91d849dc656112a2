import { mkdirSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { SignJWT } from 'jose'
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { configureLogger } from '../../src/index.js'
import { hosts } from '../support/e2e.js'
import { readmeBlocks, root } from '../support/readme-blocks.js'

// The example of docs/authentication.md runs as written, on Express 4 and 5: a jose-signed token
// is admitted, and a request without one gets the 401 the guide shows, with its challenge.

beforeAll(() => {
  configureLogger({ silent: true })
})

const blocks = readmeBlocks()
const tmp = resolve(root, '.tmp/readme')

function shown(name: string): unknown {
  const block = blocks.find((b) => b.output === name)
  if (block === undefined) throw new Error(`no block is marked output ${name}`)
  return JSON.parse(block.code)
}

async function example(host: string) {
  const block = blocks.find((b) => b.example === 'auth')
  if (block === undefined) throw new Error('no block is marked example auth')
  const code = block.code
    .replace(/from 'shapeguard'/g, `from '${root}/src/index.ts'`)
    .replace(/from 'express'/g, `from '${host === 'express 4' ? 'express4' : 'express'}'`)
  mkdirSync(tmp, { recursive: true })
  const file = resolve(tmp, `auth-${host.replace(' ', '')}.ts`)
  writeFileSync(file, `${code}export { app }\n`)
  return (await import(/* @vite-ignore */ file)).app
}

const secret = new TextEncoder().encode('a-secret-of-at-least-32-bytes!!!')
const token = (sub: string, expires: string | number = '5m') =>
  new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setExpirationTime(expires)
    .sign(secret)

describe.each(hosts)('%s', (host) => {
  it('auth-401: the answer the guide shows, with its challenge', async () => {
    const app = await example(host)
    const missing = await request(app).get('/me')
    expect(missing.status).toBe(401)
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="api"')
    expect(JSON.parse(missing.text)).toEqual(shown('auth-401'))
    const forged = await request(app)
      .get('/me')
      .set('authorization', `Bearer ${(await token('u1')).slice(0, -2)}xx`)
    expect(forged.status).toBe(401)
    expect(forged.headers['www-authenticate']).toBe('Bearer realm="api", error="invalid_token"')
    expect(forged.text).not.toContain('xx')
  })

  it('admits a token jose signed, and refuses an expired one', async () => {
    const app = await example(host)
    const ok = await request(app)
      .get('/me')
      .set('authorization', `Bearer ${await token('u1')}`)
    expect([ok.status, ok.body.data]).toEqual([200, { userId: 'u1' }])
    const old = await token('u1', Math.floor(Date.now() / 1000) - 60)
    expect((await request(app).get('/me').set('authorization', `Bearer ${old}`)).status).toBe(401)
  })
})
