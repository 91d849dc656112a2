import express from 'express'
import { beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { configureLogger, errorHandler, handle, shapeguard } from '../../src/index.js'
import { type FuzzError, fuzzRoutes } from '../../src/testing/index.js'

// A failure on a route of signed cookies: the fuzzer signs them with the app's own first secret,
// and its message (which CI logs keep) shows no signature.

beforeAll(() => configureLogger({ silent: true }))

describe('fuzzRoutes on a route of signed cookies', () => {
  it('prints the curl line of a failure with each signature as ***', async () => {
    const app = express()
    app.use(shapeguard({ cookies: { secrets: ['the-real-secret'] } }))
    app.get(
      '/me',
      ...handle({ signedCookies: z.object({ sid: z.string() }) }, () => {
        throw new Error('planted')
      }),
    )
    app.use(errorHandler())
    const error = (await fuzzRoutes(app, { runs: 20, seed: 1 }).catch(
      (e: unknown) => e,
    )) as FuzzError
    const [failure] = error.report.failures
    expect(failure!.request.headers.cookie).toMatch(/sid=s%3A[^;]*\.[^*;]+/)
    expect(failure!.curl).toMatch(/-H 'cookie: sid=s%3A[^;']*\.\*\*\*'$/)
    expect(error.message).toContain(failure!.curl)
    const signature = failure!.request.headers.cookie!.split('.').pop()!
    expect(error.message).not.toContain(signature)
  }, 60_000)
})
