import express from 'express'
import { describe, expect, it } from 'vitest'
import { discoverRoutes } from '../../../src/runtime/pipeline/discover-routes.js'
import { handle } from '../../../src/runtime/pipeline/handle.js'
import { createRouter } from '../../../src/runtime/router/create-router.js'
import { dispatchThroughTable, pathnameOf } from '../../../src/runtime/router/table-dispatch.js'

describe('pathnameOf', () => {
  it('reads the path before the query as parseurl does', () => {
    expect(pathnameOf('/a/b?c=1')).toBe('/a/b')
    expect(pathnameOf('/a/b?c=1?d')).toBe('/a/b')
    expect(pathnameOf('/')).toBe('/')
    expect(pathnameOf('//x')).toBe('//x')
  })

  it('declines what parseurl hands to the legacy parser, and the absolute form', () => {
    for (const url of [
      '/a b',
      '/a#b',
      '/a?b c',
      '/a\tb',
      '/a\u00a0b',
      '/a\ufeffb',
      'http://h/a',
      '*',
      '',
    ])
      expect(pathnameOf(url)).toBeUndefined()
    expect(pathnameOf(undefined)).toBeUndefined()
  })
})

describe('dispatchThroughTable', () => {
  it('leaves a router without a layer stack as it is', () => {
    const fake = Object.assign(() => {}, { handle() {}, use() {} }) as never
    expect(dispatchThroughTable(fake, () => express.Router() as never)).toBe(false)
  })

  it('keeps the whole stack visible: discoverRoutes finds every route of a createRouter', () => {
    const router = createRouter()
    for (let i = 0; i < 300; i++) router.post(`/r${i}/:id`, ...handle({}, (_req, res) => res.end()))
    const app = express()
    app.use('/v1', router)
    const routes = discoverRoutes(app).routes
    expect(routes).toHaveLength(300)
    expect(routes[299]).toMatchObject({ method: 'post', path: '/v1/r299/:id' })
  })
})
