import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import express from 'express'
import express4 from 'express4'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { bodyRead } from '../../../src/runtime/host/body-read.js'
import { peerMode } from '../../support/peers.js'

// What bodyRead relies on, pinned to the hosts CI runs: Express 4 with body-parser 1, which marks a
// request it reads with the private `_body`, and Express 5 with body-parser 2, which does not;
// both read the stream to its end before the route runs. A new major of either fails here first.
const require = createRequire(import.meta.url)
const versionOf = (pkg: string, from?: string): string => {
  const at = from === undefined ? require : createRequire(require.resolve(`${from}/package.json`))
  return JSON.parse(readFileSync(at.resolve(`${pkg}/package.json`), 'utf8')).version
}
const express4Package = peerMode() === 'lowest' ? 'express-lowest' : 'express4'

describe.each([
  ['express 4', express4, express4Package, '4', '1', true],
  ['express 5', express, 'express', '5', '2', undefined],
] as const)('bodyRead on %s', (_, host, hostPackage, hostMajor, parserMajor, mark) => {
  it(`runs with body-parser ${parserMajor}`, () => {
    expect(versionOf(hostPackage).split('.')[0]).toBe(hostMajor)
    expect(versionOf('body-parser', hostPackage).split('.')[0]).toBe(parserMajor)
  })

  const seen = async (parse: boolean) => {
    const app = (host as typeof express)()
    if (parse) app.use((host as typeof express).json())
    app.post('/', (req, res) => {
      res.json({
        ended: req.readableEnded,
        mark: (req as { _body?: unknown })._body ?? null,
        read: bodyRead(req) ?? null,
      })
    })
    return (await request(app).post('/').send({ a: 1 })).body
  }

  it('is true once the parser read the body, from the stream alone', async () => {
    expect(await seen(true)).toEqual({ ended: true, mark: mark ?? null, read: true })
  })

  it('is false when no parser read it', async () => {
    expect(await seen(false)).toEqual({ ended: false, mark: null, read: false })
  })
})

describe('bodyRead on a request double', () => {
  it("reads body-parser 1's mark, and cannot tell without a stream", () => {
    expect(bodyRead({ readableEnded: false, _body: true })).toBe(true)
    expect(bodyRead({ _body: true })).toBe(true)
    expect(bodyRead({ readableEnded: false, _body: 'yes' })).toBe(false)
    expect(bodyRead({})).toBeUndefined()
  })
})
