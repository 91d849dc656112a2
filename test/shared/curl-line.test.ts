import { describe, expect, it } from 'vitest'
import { secretPlaces } from '../../src/shared/credential-places.js'
import { curlLine } from '../../src/shared/curl-line.js'
import { defaultErrorStatuses } from '../../src/shared/error-statuses.js'

const schemes = {
  bearer: { type: 'http', scheme: 'bearer' },
  header: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
  query: { type: 'apiKey', in: 'query', name: 'api key' },
  cookie: { type: 'apiKey', in: 'cookie', name: 'sid' },
} as const

describe('curlLine', () => {
  it('masks each credential where its scheme sends it, before quoting', () => {
    const line = curlLine(
      'GET',
      'http://localhost:3000/me?a=1&api%20key=k3y&api+key=k3y2&b=2',
      {
        authorization: "Bearer t0k'en",
        'x-api-key': 'k3y\r',
        cookie: 'theme=dark; sid=k3y; s=s:v.sig',
        'x-tenant': 'acme',
      },
      undefined,
      secretPlaces(schemes),
    )
    expect(line).toBe(
      "curl --globoff -X GET 'http://localhost:3000/me?a=1&api%20key=***&api+key=***&b=2' -H 'authorization: Bearer ***' -H 'x-api-key: ***' -H 'cookie: theme=dark; sid=***; s=s:v.***' -H 'x-tenant: acme'",
    )
  })

  it('masks an Authorization header without a scheme word whole, and more headers when given', () => {
    const line = curlLine(
      'GET',
      'http://h/x',
      { Authorization: 'tok', 'X-Extra': 'v' },
      undefined,
      secretPlaces({}, ['x-extra']),
    )
    expect(line).toBe(
      "curl --globoff -X GET 'http://h/x' -H 'Authorization: ***' -H 'X-Extra: ***'",
    )
  })

  it('shows every value without secrets, as before', () => {
    expect(curlLine('GET', 'http://h/x?api_key=1', { authorization: 'Bearer t' }, undefined)).toBe(
      "curl --globoff -X GET 'http://h/x?api_key=1' -H 'authorization: Bearer t'",
    )
  })

  it('replays a request that asks for a stream with -N, which shows each event as it comes', () => {
    for (const accept of ['text/event-stream', 'Application/X-NDJSON; q=1'])
      expect(curlLine('GET', 'http://h/x', { Accept: accept }, undefined)).toMatch(
        /^curl -N --globoff -X GET /,
      )
    expect(curlLine('GET', 'http://h/x', { accept: 'application/json' }, undefined)).toMatch(
      /^curl --globoff /,
    )
  })
})

describe('defaultErrorStatuses', () => {
  it('lists what the route has, in order', () => {
    const none = {
      secured: false,
      body: false,
      files: false,
      rateLimited: false,
      failsClosed: false,
      timed: false,
      overloaded: false,
    }
    expect(defaultErrorStatuses(none)).toEqual([400, 422, 500])
    expect(defaultErrorStatuses({ ...none, timed: true })).toEqual([400, 422, 500, 503])
    expect(defaultErrorStatuses({ ...none, overloaded: true })).toEqual([400, 422, 500, 503])
    expect(
      defaultErrorStatuses({
        secured: true,
        body: true,
        files: false,
        rateLimited: true,
        failsClosed: true,
        timed: false,
        overloaded: false,
      }),
    ).toEqual([400, 401, 403, 413, 415, 422, 429, 500, 503])
  })
})
