import { describe, expect, it } from 'vitest'
import { shapeguard } from '../../../src/index.js'
import { mockRequest } from '../../../src/testing/index.js'
import { captureLogger } from '../../support/e2e.js'
import { misuse } from '../../support/misuse.js'

describe('mockRequest', () => {
  it('carries body, params, query, headers, ip and socket.remoteAddress', () => {
    const req = mockRequest({
      method: 'post',
      url: '/users/7?full=1',
      body: { name: 'Ada' },
      params: { id: '7' },
      query: { full: '1' },
      headers: { 'X-Api-Key': 'k1', Referer: 'https://a.example' },
      ip: '10.0.0.1',
    })
    expect(req.method).toBe('POST')
    expect(req.path).toBe('/users/7')
    expect(req.originalUrl).toBe('/users/7?full=1')
    expect(req.body).toEqual({ name: 'Ada' })
    expect(req.params).toEqual({ id: '7' })
    expect(req.query).toEqual({ full: '1' })
    expect(req.headers['x-api-key']).toBe('k1')
    expect(req.ip).toBe('10.0.0.1')
    expect(req.socket.remoteAddress).toBe('10.0.0.1')
  })

  it('get(header) is case-insensitive and knows referrer', () => {
    const req = mockRequest({ headers: { 'Content-Type': 'application/json', referer: 'r' } })
    expect(req.get('content-type')).toBe('application/json')
    expect(req.get('CONTENT-TYPE')).toBe('application/json')
    expect(req.get('Referrer')).toBe('r')
    expect(req.get('x-missing')).toBeUndefined()
  })

  it('defaults to GET / with empty params, query and id', () => {
    const req = mockRequest()
    expect([req.method, req.url, req.path]).toEqual(['GET', '/', '/'])
    expect(req.params).toEqual({})
    expect(req.query).toEqual({})
    expect(req.ip).toBe('127.0.0.1')
    expect(req.app.locals).toEqual({})
  })

  it('parses the query from the url as Express 5 does, unless a query is given', () => {
    expect(mockRequest({ url: '/users?page=2&tag=a&tag=b' }).query).toEqual({
      page: '2',
      tag: ['a', 'b'],
    })
    expect(mockRequest({ url: '/users?page=2', query: { page: 3 } }).query).toEqual({ page: 3 })
    expect(mockRequest({ url: '/users' }).query).toEqual({})
  })

  it('takes path as an alias of url, as req.path reads it', () => {
    const req = mockRequest({ path: '/users/7' })
    expect([req.url, req.originalUrl, req.path]).toEqual(['/users/7', '/users/7', '/users/7'])
    const both = mockRequest({ url: '/users/7?full=1', path: '/users/7' })
    expect([both.path, both.query]).toEqual(['/users/7', { full: '1' }])
    expect(mockRequest({ url: '/users/7', path: '/users/7' }).path).toBe('/users/7')
  })

  it('refuses a path that is not the path of url, and a path or url that is not a string', () => {
    expect(() => mockRequest({ url: '/users/7', path: '/users/8' })).toThrow(
      misuse(
        'SG_ERR_OPTION_CONFLICT',
        'shapeguard: mockRequest(): path "/users/8" is not the path of url "/users/7", give one of them',
      ),
    )
    expect(() => mockRequest({ path: 7 } as never)).toThrow(
      /mockRequest\(\): path must be a string/,
    )
    expect(() => mockRequest({ url: null } as never)).toThrow(
      /mockRequest\(\): url must be a string/,
    )
  })

  it('refuses an unknown option, listing the ones it takes', () => {
    const call = () => mockRequest({ pth: '/users' } as never)
    expect(call).toThrow(TypeError)
    expect(call).toThrow(/\bpth is not an option/)
    expect(call).toThrow('(method, url, path, body, params, query, headers, ip, id, locals)')
    expect(() => mockRequest('/users' as never)).toThrow(
      /mockRequest\(\): options must be an object/,
    )
  })
})

describe('mockRequest().log', () => {
  it('writes through the default backend with the request ID, as a real request does', () => {
    const captured = captureLogger()
    shapeguard({ logger: { instance: captured } })
    const req = mockRequest({ id: 'req-7' })
    req.log.info({ step: 2 }, 'from a handler under test')
    expect(captured.records).toContainEqual({
      level: 'info',
      message: 'from a handler under test',
      meta: { requestId: 'req-7', step: 2 },
    })
  })
})

describe('mockRequest().log assigned', () => {
  it('takes another logger, as pino-http assigns one on a real request', () => {
    const req = mockRequest()
    const own = captureLogger()
    req.log = own
    req.log.info('mine')
    expect(own.records).toEqual([{ level: 'info', message: 'mine', meta: {} }])
  })
})
