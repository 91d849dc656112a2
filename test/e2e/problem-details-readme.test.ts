import { mkdirSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { configureLogger } from '../../src/index.js'
import { hosts } from '../support/e2e.js'
import { readmeBlocks, root } from '../support/readme-blocks.js'

// The problem-details example of docs/responses-and-errors.md runs as written, on Express 4 and
// 5, and answers what the guide shows (the request ID normalised).

beforeAll(() => {
  configureLogger({ silent: true })
})

const blocks = readmeBlocks()
const tmp = resolve(root, '.tmp/readme')

function shown(name: string): unknown {
  const block = blocks.find((b) => b.output === name)
  if (block === undefined) throw new Error(`no block is marked output ${name}`)
  return normalised(JSON.parse(block.code))
}

function normalised(body: Record<string, unknown>): unknown {
  return { ...body, requestId: String(body.requestId).replace(/^req_[0-9a-f]{24}$/, 'req_<id>') }
}

async function example(host: string) {
  const block = blocks.find((b) => b.example === 'problem-details')
  if (block === undefined) throw new Error('no block is marked example problem-details')
  const code = block.code
    .replace(/from 'shapeguard'/g, `from '${root}/src/index.ts'`)
    .replace(/from 'express'/g, `from '${host === 'express 4' ? 'express4' : 'express'}'`)
  mkdirSync(tmp, { recursive: true })
  const file = resolve(tmp, `problem-details-${host.replace(' ', '')}.ts`)
  writeFileSync(file, `${code}export { app }\n`)
  return (await import(/* @vite-ignore */ file)).app
}

describe.each(hosts)('%s', (host) => {
  it('problem-422, problem-409: the answers the guide shows', async () => {
    const app = await example(host)
    const invalid = await request(app).post('/users').send({ email: 'ada' })
    expect([invalid.status, invalid.headers['content-type']]).toEqual([
      422,
      'application/problem+json; charset=utf-8',
    ])
    expect(normalised(JSON.parse(invalid.text))).toEqual(shown('problem-422'))
    const taken = await request(app).post('/orders?coupon=X1')
    expect(taken.status).toBe(409)
    expect(normalised(JSON.parse(taken.text))).toEqual(shown('problem-409'))
  })
})
