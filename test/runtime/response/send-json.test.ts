import express from 'express'
import express4 from 'express4'
import { describe, expect, it } from 'vitest'
import { ownJson } from '../../../src/runtime/response/send-json.js'
import { mockResponse } from '../../../src/testing/index.js'

describe.each([
  ['express 4', express4],
  ['express 5', express],
] as const)('ownJson on %s', (_, host) => {
  const responseOf = (configure: (app: ReturnType<typeof express>) => void = () => {}) => {
    const app = host() as unknown as ReturnType<typeof express>
    configure(app)
    return Object.create(app.response)
  }

  it('writes JSON itself for an app with default settings', () => {
    expect(ownJson(responseOf())).toBe(true)
    expect(ownJson(responseOf((app) => app.set('json spaces', 0)))).toBe(true)
  })

  it("leaves the bytes to res.json where the app's json settings change them", () => {
    expect(ownJson(responseOf((app) => app.set('json spaces', 2)))).toBe(false)
    expect(ownJson(responseOf((app) => app.set('json escape', true)))).toBe(false)
    expect(ownJson(responseOf((app) => app.set('json replacer', () => 1)))).toBe(false)
  })

  it('leaves them to res.json or res.send where something replaced them on the response', () => {
    const wrappedJson = responseOf()
    wrappedJson.json = () => wrappedJson
    expect(ownJson(wrappedJson)).toBe(false)
    const wrappedSend = responseOf()
    wrappedSend.send = () => wrappedSend
    expect(ownJson(wrappedSend)).toBe(false)
  })

  it('leaves a response double with no app to its own json', () => {
    expect(ownJson(mockResponse() as never)).toBe(false)
  })
})
