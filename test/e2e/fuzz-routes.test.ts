import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configureLogger } from '../../src/index.js'
import { type FuzzError, fuzzRoutes } from '../../src/testing/index.js'
import { readmeBlocks } from '../readme/readme-blocks.js'
import { fuzzApp } from './fixtures/fuzz-app.js'
import { hosts } from './support.js'

// Kept small for `npm test`; FUZZ_RUNS raises it.
const runs = Math.min(Number(process.env.FUZZ_RUNS ?? 40), 2000)

beforeAll(() => configureLogger({ silent: true }))
afterAll(() => configureLogger({ silent: true }))

describe.each(hosts)('fuzzRoutes on %s', (_, express) => {
  it('finds no broken invariant on a correct app with zod, valibot and yup routes', async () => {
    const report = await fuzzRoutes(fuzzApp(express), { runs, seed: 11 })
    expect(report.routes.map((r) => r.route)).toEqual([
      'POST /v1/posts',
      'GET /v1/users/:id',
      'POST /v1/orders',
      'GET /v1/search',
    ])
    expect(report.routes.every((r) => r.requests === runs && r.notes.length === 0)).toBe(true)
    expect(report.requests).toBe(4 * runs)
    expect(report.failures).toEqual([])
  }, 60_000)

  it('finds the planted bug (a crash on an empty tag list) and shrinks it to a curl line', async () => {
    const error = (await fuzzRoutes(fuzzApp(express, { bug: true }), { runs, seed: 99 }).catch(
      (e: unknown) => e,
    )) as FuzzError
    expect(error).toBeInstanceOf(Error)
    expect(error.message).toContain('seed 99')
    expect(error.message).toContain('POST /v1/posts: answered 500: a request must never get a 5xx')
    const [failure] = error.report.failures
    expect(error.report.failures).toHaveLength(1)
    expect(JSON.parse(failure!.request.body!)).toEqual({ title: expect.any(String), tags: [] })
    // Shrunk: the shortest title that passes trim().min(1).
    expect(JSON.parse(failure!.request.body!).title).toHaveLength(1)
    expect(failure!.curl).toMatch(
      /^curl --globoff -X POST 'http:\/\/localhost:3000\/v1\/posts' -H 'content-type: application\/json' --data-raw '\{"title":"a","tags":\[\]\}'$/,
    )
    expect(error.message).toContain(failure!.curl)
  }, 60_000)

  it('sends the auth header it is given; without it every answer is an undocumented 401', async () => {
    const app = fuzzApp(express, { token: 't0k' })
    await expect(fuzzRoutes(app, { runs: 5, seed: 1 })).rejects.toThrow(
      /answered 401, a status the OpenAPI document does not list/,
    )
    const report = await fuzzRoutes(app, { runs: 5, seed: 1, auth: 'Bearer t0k' })
    expect(report.failures).toEqual([])
  }, 60_000)
})

describe('fuzzRoutes', () => {
  const express = hosts[1][1]

  it('fuzzes only the routes asked for, and allows statuses beyond the document', async () => {
    const app = fuzzApp(express, { token: 't' })
    const report = await fuzzRoutes(app, {
      runs: 5,
      seed: 3,
      routes: ['get /v1/search'],
      statuses: { 'GET /v1/search': [401] },
    })
    expect(report.routes.map((r) => r.route)).toEqual(['GET /v1/search'])
    expect(report.requests).toBe(5)
  })

  it('checks its options when called', async () => {
    const app = fuzzApp(express)
    await expect(fuzzRoutes(app, { runs: 0 })).rejects.toThrow(
      'fuzzRoutes(): options.runs must be a positive integer',
    )
    await expect(fuzzRoutes(app, { nope: 1 } as never)).rejects.toThrow(
      'options.nope is not an option',
    )
    await expect(fuzzRoutes(app, { routes: ['GET /missing'] })).rejects.toThrow(
      'options.routes names GET /missing, which the app does not have',
    )
    await expect(fuzzRoutes({}, {})).rejects.toThrow(/must be an Express app or router/)
  })

  it('fuzz-failure: produces the README sample failure report', async () => {
    const error = (await fuzzRoutes(fuzzApp(express, { bug: true }), {
      runs: 100,
      seed: 42,
      routes: ['POST /v1/posts'],
    }).catch((e: unknown) => e)) as Error
    const block = readmeBlocks().find((b) => b.output === 'fuzz-failure')
    expect(`${error.message}\n`).toBe(block?.code)
  }, 60_000)
})
