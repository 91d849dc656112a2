import type { Express } from 'express'
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { configureLogger } from '../../src/index.js'
import { generateOpenAPI } from '../../src/openapi/index.js'
import { hosts } from '../support/e2e.js'
import { importExample, markedBlock } from '../support/readme-example.js'

// docs/api-evolution.md's deprecated route runs as written, on Express 4 and 5: the headers the
// guide shows are on its success and its 422, and its document says what the guide says.

beforeAll(() => {
  configureLogger({ silent: true })
})

const shown = () =>
  Object.fromEntries(
    markedBlock('output', 'deprecation-headers')
      .code.trim()
      .split('\n')
      .map((line) => [
        line.slice(0, line.indexOf(':')).toLowerCase(),
        line.slice(line.indexOf(':') + 2),
      ]),
  )

describe.each(hosts)('%s', (host) => {
  const example = () => importExample<{ app: Express }>('deprecation', host)

  it('deprecation-headers: a success and a 422 carry the headers the guide shows', async () => {
    const { app } = await example()
    for (const [path, status] of [
      ['/v1/users/7', 200],
      ['/v1/users/seven', 422],
    ] as const) {
      const res = await request(app).get(path)
      expect(res.status).toBe(status)
      expect({
        deprecation: res.headers.deprecation,
        sunset: res.headers.sunset,
        link: res.headers.link,
      }).toEqual(shown())
    }
  })

  it('documents the operation deprecated, with x-sunset', async () => {
    const { app } = await example()
    const op = (generateOpenAPI({ title: 't', version: '1', app }).paths as any)['/v1/users/{id}']
      .get
    expect(op.deprecated).toBe(true)
    expect(op['x-sunset']).toBe('2027-03-01')
  })
})
