import type { Request } from 'express'
import { describe, expect, it } from 'vitest'
import { isAppError } from '../../../src/runtime/core/app-error.js'
import { checkContentType } from '../../../src/runtime/guards/content-type.js'

function outcome(
  method: string,
  headers: Record<string, string>,
  stream: Record<string, unknown> = {},
): string {
  try {
    checkContentType({ method, headers, ...stream } as unknown as Request)
    return 'ok'
  } catch (error) {
    if (!isAppError(error)) throw error
    return `${error.statusCode} ${error.code}`
  }
}

const withBody = { 'content-length': '12' }

describe('checkContentType', () => {
  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON;charset=UTF-8',
    '  application/json  ',
    'application/vnd.api+json',
    'application/merge-patch+json; charset=utf-8',
    'application/problem+json',
    'application/x-www-form-urlencoded',
    'application/x-www-form-urlencoded; charset=utf-8',
    'multipart/form-data; boundary=----abc',
  ])('accepts a body sent as %s', (type) => {
    for (const method of ['POST', 'PUT', 'PATCH']) {
      expect(outcome(method, { ...withBody, 'content-type': type })).toBe('ok')
    }
  })

  it.each([
    'text/plain',
    'text/plain; charset=utf-8',
    'application/xml',
    'application/octet-stream',
    'application/jsonp',
    'application/json5',
    'application/+json',
    '/+json',
    'application/vnd api+json',
    'json',
    'multipart/mixed; boundary=x',
    '',
  ])('answers 415 to a body sent as %j', (type) => {
    expect(outcome('POST', { ...withBody, 'content-type': type })).toBe('415 INVALID_CONTENT_TYPE')
  })

  it('answers 415 to a body without a content type, with a message saying what to send', () => {
    expect(outcome('POST', withBody)).toBe('415 INVALID_CONTENT_TYPE')
    expect(outcome('PATCH', { 'transfer-encoding': 'chunked' })).toBe('415 INVALID_CONTENT_TYPE')
    try {
      checkContentType({ method: 'PUT', headers: withBody } as unknown as Request)
    } catch (error) {
      expect((error as Error).message).toBe(
        'Content-Type is required for a request with a body: send application/json, application/x-www-form-urlencoded or multipart/form-data',
      )
      expect((error as { details: unknown }).details).toEqual({
        allowed: [
          'application/json',
          'application/*+json',
          'application/x-www-form-urlencoded',
          'multipart/form-data',
        ],
      })
    }
  })

  it('lets a request without a body through, whatever its content type', () => {
    expect(outcome('POST', {})).toBe('ok')
    expect(outcome('POST', { 'content-length': '0' })).toBe('ok')
    expect(outcome('POST', { 'content-length': '00' })).toBe('ok')
    expect(outcome('POST', { 'content-length': '' })).toBe('ok')
    expect(outcome('PUT', { 'content-length': '000', 'content-type': 'text/plain' })).toBe('ok')
    expect(outcome('PUT', { 'content-length': '0', 'content-type': 'text/plain' })).toBe('ok')
  })

  it('treats a chunked request as one with a body', () => {
    expect(outcome('POST', { 'transfer-encoding': 'chunked', 'content-type': 'text/plain' })).toBe(
      '415 INVALID_CONTENT_TYPE',
    )
    expect(
      outcome('POST', { 'transfer-encoding': 'chunked', 'content-type': 'application/json' }),
    ).toBe('ok')
  })

  it.each(['GET', 'DELETE', 'HEAD', 'OPTIONS'])('does not check %s', (method) => {
    expect(outcome(method, { ...withBody, 'content-type': 'text/plain' })).toBe('ok')
    expect(outcome(method, withBody)).toBe('ok')
  })

  describe('a JSON or form body no parser parsed', () => {
    const unread = { readableEnded: false }
    it.each([
      'application/json',
      'application/vnd.api+json; charset=utf-8',
      'application/x-www-form-urlencoded',
    ])('answers 415 to %s left unread', (type) => {
      expect(outcome('POST', { ...withBody, 'content-type': type }, unread)).toBe(
        '415 INVALID_CONTENT_TYPE',
      )
    })

    function unparsedError(type: string): { message: string; details: unknown } {
      try {
        checkContentType({
          method: 'PATCH',
          headers: { ...withBody, 'content-type': type },
          readableEnded: false,
        } as unknown as Request)
      } catch (error) {
        return error as { message: string; details: unknown }
      }
      throw new Error('expected a 415')
    }

    it('says the API does not parse a correct application/json body, never to send one', () => {
      const error = unparsedError('application/json; charset=utf-8')
      expect(error).toMatchObject({
        message: 'This API does not parse application/json bodies on this route',
        details: { allowed: ['application/x-www-form-urlencoded', 'multipart/form-data'] },
      })
      expect(error.message).not.toMatch(/send/)
    })

    it('says the same of a form body, listing what may still be parsed', () => {
      expect(unparsedError('application/x-www-form-urlencoded')).toMatchObject({
        message: 'This API does not parse application/x-www-form-urlencoded bodies on this route',
        details: { allowed: ['application/json', 'application/*+json', 'multipart/form-data'] },
      })
    })

    it('says a +json type is not parsed, without echoing it', () => {
      const error = unparsedError('Application/Merge-Patch+JSON; charset=utf-8')
      expect(error).toMatchObject({
        message: 'This API does not parse this +json media type on this route',
        details: {
          allowed: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
        },
      })
      expect(error.message.toLowerCase()).not.toContain('merge-patch')
    })

    it('tells onUnparsed, once per unparsed body, and only then', () => {
      const heard: unknown[] = []
      const check = (headers: Record<string, string>, stream: Record<string, unknown>) => {
        try {
          checkContentType(
            { method: 'POST', headers, ...stream } as unknown as Request,
            (_req, u) => heard.push([u.type, u.parser]),
          )
        } catch {}
      }
      check({ ...withBody, 'content-type': 'application/json' }, unread)
      check({ ...withBody, 'content-type': 'application/x-www-form-urlencoded' }, unread)
      check({ ...withBody, 'content-type': 'text/plain' }, unread)
      check({ ...withBody, 'content-type': 'application/json' }, { readableEnded: true })
      check(withBody, unread)
      expect(heard).toEqual([
        ['application/json', 'app.use(express.json())'],
        ['application/x-www-form-urlencoded', 'app.use(express.urlencoded({ extended: false }))'],
      ])
    })

    it('passes a body read by a parser (body-parser 1 sets _body; 2 reads to the end)', () => {
      const json = { ...withBody, 'content-type': 'application/json' }
      expect(outcome('POST', json, { readableEnded: true })).toBe('ok')
      expect(outcome('POST', json, { readableEnded: false, _body: true })).toBe('ok')
      expect(outcome('POST', json, { readableEnded: false, _body: 'yes' })).toBe(
        '415 INVALID_CONTENT_TYPE',
      )
    })

    it('leaves multipart, bodiless requests, other methods and test doubles alone', () => {
      const unreadMultipart = { ...withBody, 'content-type': 'multipart/form-data; boundary=x' }
      expect(outcome('POST', unreadMultipart, unread)).toBe('ok')
      const json = { 'content-type': 'application/json' }
      expect(outcome('POST', { ...json, 'content-length': '0' }, unread)).toBe('ok')
      expect(outcome('DELETE', { ...json, ...withBody }, unread)).toBe('ok')
      expect(outcome('POST', { ...json, ...withBody })).toBe('ok')
    })
  })
})
