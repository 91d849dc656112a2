import express from 'express'
import express4 from 'express4'
import { afterEach, describe, expect, it } from 'vitest'
import { expressResponseOf, expressSends } from '../../../src/runtime/host/express-response.js'
import { mockResponse } from '../../../src/testing/index.js'

type App = ReturnType<typeof express>

describe.each([
  ['express 4', express4],
  ['express 5', express],
] as const)('expressSends on %s', (_, host) => {
  const base = host.response as unknown as Record<string, unknown>
  const original = { json: base.json, send: base.send }
  afterEach(() => {
    base.json = original.json
    base.send = original.send
  })
  const app = () => host() as unknown as App
  const responseOf = (a: App) => Object.create(a.response) as Record<string, unknown>

  it("finds Express's own response prototype under an app's and a sub-app's", () => {
    const parent = app()
    const sub = app()
    parent.use('/sub', sub)
    expect(expressResponseOf(responseOf(parent))).toBe(host.response)
    expect(expressResponseOf(responseOf(sub))).toBe(host.response)
    expect(expressResponseOf({})).toBeUndefined()
  })

  it("takes Express's own functions, for an app and a sub-app", () => {
    const parent = app()
    const sub = app()
    parent.use('/sub', sub)
    expect(expressSends(responseOf(parent))).toBe(true)
    expect(expressSends(responseOf(sub))).toBe(true)
  })

  it.each(['json', 'send'] as const)('refuses a %s replaced on the response', (method) => {
    const res = responseOf(app())
    res[method] = () => res
    expect(expressSends(res)).toBe(false)
  })

  it.each(['json', 'send'] as const)("refuses a %s replaced on an app's app.response", (method) => {
    const a = app()
    const proto = a.response as unknown as Record<string, unknown>
    proto[method] = function wrapped(this: unknown) {
      return this
    }
    expect(expressSends(responseOf(a))).toBe(false)
  })

  it("refuses a parent app's override seen from a sub-app", () => {
    const parent = app()
    const sub = app()
    parent.use('/sub', sub)
    ;(parent.response as unknown as Record<string, unknown>).json = function wrapped() {}
    expect(expressSends(responseOf(sub))).toBe(false)
  })

  it.each(['json', 'send'] as const)('refuses an express.response.%s patch', (method) => {
    base[method] = function patched(this: unknown) {
      return this
    }
    expect(expressSends(responseOf(app()))).toBe(false)
  })

  it("refuses Express's functions on a response outside Express's prototype chain", () => {
    expect(expressSends({ json: original.json, send: original.send })).toBe(false)
    expect(expressSends(mockResponse() as never)).toBe(false)
  })
})
