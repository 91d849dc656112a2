import { execFileSync } from 'node:child_process'
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { defineRoute, file } from '../../../src/index.js'
import { resolveLimits } from '../../../src/runtime/guards/limits.js'
import { typeAllowed, uploadType } from '../../../src/runtime/multipart/sniff.js'
import { curlLine } from '../../../src/shared/curl-line.js'
import { envelopeNames } from '../../../src/shared/envelope-shape.js'
import { draftBytes, fileKinds } from '../../../src/testing/arbitrary/upload.js'
import { signCookie } from '../../../src/testing/fuzz/cookie-wire.js'
import type { FuzzRequest } from '../../../src/testing/fuzz/fuzz-request.js'
import { brokenInvariant, type RouteChecks } from '../../../src/testing/fuzz/invariants.js'
import { errorAnswerCheck } from '../../../src/testing/fuzz/response-check.js'
import { routeRequests } from '../../../src/testing/fuzz/route-requests.js'
import { validUploads } from '../../../src/testing/fuzz/upload-cases.js'

const limits = resolveLimits(undefined, undefined)
const sample = (route: object, secret?: string, numRuns = 400) => {
  const { arbitrary, notes } = routeRequests('post', '/x', route as never, {
    headers: {},
    limits,
    secret,
  })
  return { requests: arbitrary ? fc.sample(arbitrary, { numRuns, seed: 7 }) : [], notes }
}
const caseOf = (r: FuzzRequest) => r.hostile ?? r.broken?.field ?? r.kind

describe('curlLine of a binary body', () => {
  // Every byte, a leading `-` (an option to printf), a quote, `%`, `\` and a long run of one byte.
  const body = Buffer.concat([
    Buffer.from("-'%\\"),
    Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
    Buffer.alloc(10_000, 0x2e),
    Buffer.alloc(300, 0),
    Buffer.from('end'),
  ])
  const line = curlLine('POST', 'http://h/x', { 'content-type': 'multipart/form-data' }, body)
  const writer = line.slice(0, line.lastIndexOf(' | curl '))

  it.each(['sh', 'bash'])('writes the exact bytes in %s', (shell) => {
    expect(execFileSync(shell, ['-c', writer]).equals(body)).toBe(true)
  })

  it('sends them with --data-binary @-, runs as head | tr', () => {
    expect(
      line.endsWith(
        " | curl --globoff -X POST 'http://h/x' -H 'content-type: multipart/form-data' --data-binary @-",
      ),
    ).toBe(true)
    expect(writer).toContain("head -c 10000 /dev/zero | tr '\\000' '\\056'")
    expect(writer).toContain('head -c 300 /dev/zero;')
    expect(line.length).toBeLessThan(2000)
  })
})

describe('curlLine of signed cookies', () => {
  it('shows each signature as ***, raw or percent-encoded, and every other cookie as is', () => {
    const raw = signCookie('a.b', 'top-secret')
    const header = `theme=dark; sid=${encodeURIComponent(raw)}; old=${raw};pct=S%3ax.y; plain=a.b`
    const line = curlLine('GET', 'http://h/x', { Cookie: header }, undefined)
    expect(line).toBe(
      "curl --globoff -X GET 'http://h/x' -H 'Cookie: theme=dark; sid=s%3Aa.b.***; old=s:a.b.***;pct=S%3ax.***; plain=a.b'",
    )
    expect(line).not.toContain(raw.slice(raw.lastIndexOf('.') + 1))
  })
})

describe('the files a field accepts', () => {
  it.each([
    [['image/png']],
    [['image/*']],
    [['image/png', 'application/pdf']],
    [['text/csv']],
    [['image/bmp']],
    [['audio/mpeg']],
    [undefined],
  ])('are made of a signature the server takes for one of %j', (types) => {
    const field = file(types === undefined ? {} : { types })
    const kinds = fileKinds(field)
    expect(kinds.length).toBeGreaterThan(0)
    for (const draft of fc
      .sample(validUploads(fc, { f: field }), { numRuns: 50, seed: 1 })
      .flat()) {
      const bytes = draftBytes(draft)
      expect(bytes.length).toBe(draft.size)
      expect(draft.size).toBeLessThanOrEqual(field.maxBytes)
      expect(typeAllowed(uploadType(bytes.subarray(0, 32), draft.type), field.types)).toBe(true)
    }
  })

  it('makes none for a family without a known signature: the server takes no file for it', () => {
    expect(fileKinds(file({ types: ['model/*'] }))).toEqual([])
  })

  it('sends maxBytes itself when it is small, and at most 64 KiB otherwise', () => {
    const small = fc.sample(validUploads(fc, { f: file({ maxBytes: 100_000 }) }), {
      numRuns: 200,
      seed: 2,
    })
    expect(small.flat().some((d) => d.size === 100_000)).toBe(true)
    const big = fc.sample(validUploads(fc, { f: file() }), { numRuns: 200, seed: 2 })
    expect(Math.max(...big.flat().map((d) => d.size))).toBeLessThanOrEqual(64 * 1024)
  })

  it('is none for a type it knows no signature of: a required field gets no request, said why', () => {
    const route = defineRoute({ files: { font: file({ types: ['font/woff'] }) } })
    const { requests, notes } = sample(route)
    expect(requests).toEqual([])
    expect(notes).toEqual([
      'no requests: fuzzRoutes(): files.font: the fuzzer makes no file of its types (font/woff)',
    ])
  })
})

describe('the requests of a route with files', () => {
  const route = defineRoute({
    files: {
      avatar: file({ types: ['image/png'], maxBytes: 1000 }),
      huge: file.many({ max: 2, optional: true, maxBytes: 50_000_000 }),
    },
    body: z.object({ title: z.string() }),
  })
  const { requests, notes } = sample(route)

  it('try every upload case, each expecting its answer', () => {
    const cases = new Map(requests.map((r) => [caseOf(r), r]))
    expect([...cases.keys()].sort()).toEqual(
      [
        'valid',
        'title',
        'files.avatar',
        'files.huge',
        'files.sg_fuzz_undeclared',
        'files.__proto__',
        'oversized-file',
        'wrong-type-file',
        'filename-10kb',
        'filename-crlf',
        'filename-nul',
        'filename-rtl',
        'filename-traversal',
        'filename-windows',
        'proto-key',
        'repeated-key',
      ].sort(),
    )
    expect(cases.get('oversized-file')!.expect).toEqual([413])
    expect(cases.get('wrong-type-file')!.expect).toEqual([415])
    expect(cases.get('files.avatar')!.kind).toBe('invalid')
    expect(cases.get('filename-nul')!.echo).toEqual(['cat.png\u0000.exe'])
    for (const r of requests) {
      expect(Buffer.isBuffer(r.body)).toBe(true)
      expect(r.headers['content-type']).toBe('multipart/form-data; boundary=shapeguard-fuzz-7c1e5a')
    }
  })

  it('say why no oversized upload goes to a field past 16 MiB', () => {
    expect(notes).toEqual([
      'files.huge: no oversized upload (maxBytes + 1 is past the 16777216 bytes sent)',
    ])
    const oversized = requests.filter((r) => r.hostile === 'oversized-file')
    expect(oversized.length).toBeGreaterThan(0)
    expect(oversized.every((r) => (r.body as Buffer).length < 100_000)).toBe(true)
  })
})

describe('the requests of a route with signed cookies', () => {
  const route = defineRoute({
    signedCookies: z.object({ session: z.string().min(1) }),
    cookies: z.object({ theme: z.enum(['dark', 'light']) }),
  })

  it('sign with the secret, forge one signature (422 naming it), and add hostile headers', () => {
    const { requests, notes } = sample(route, 'top-secret')
    expect(notes).toEqual([])
    const valid = requests.find((r) => r.kind === 'valid')!
    expect(valid.headers.cookie).toMatch(/(^|; )theme=(dark|light)(; |$)/)
    expect(valid.headers.cookie).toMatch(/(^|; )session=s%3A[^;]+\.[^;]+/)
    const forged = requests.find((r) => r.broken?.field === 'signedCookies.session')!
    expect(forged.kind).toBe('invalid')
    const cases = new Set(requests.map(caseOf))
    for (const name of [
      'cookie-8kb',
      'cookie-1000',
      'cookie-proto',
      'cookie-malformed',
      'cookie-percent',
    ])
      expect(cases).toContain(name)
    const big = requests.find((r) => r.hostile === 'cookie-1000')!
    expect(big.headers.cookie!.split('; ').length).toBeGreaterThan(1000)
    expect(big.headers.cookie!.length).toBeLessThan(12_000)
  })

  it('send only forged signatures and hostile headers when the secret cannot be read', () => {
    const { requests, notes } = sample(route, undefined)
    expect(notes).toEqual([
      "the app's cookie secrets could not be read (its shapeguard() was not reached): no valid requests, only wrong-signature and hostile ones",
    ])
    expect(requests.some((r) => r.broken?.field === 'signedCookies.session')).toBe(true)
    expect(requests.every((r) => r.kind !== 'valid' && r.broken?.part !== 'cookies')).toBe(true)
  })
})

describe('the echo invariant', () => {
  const checks: RouteChecks = {
    operation: undefined,
    allowed: new Set(),
    errorAnswer: errorAnswerCheck({ paths: {}, components: {} } as never),
    response: undefined,
    rateLimited: false,
    unavailable: new Set(),
    envelope: envelopeNames(undefined),
  }
  const req: FuzzRequest = {
    kind: 'hostile',
    method: 'POST',
    url: '/x',
    headers: {},
    body: undefined,
    hostile: 'filename-crlf',
    echo: ['cat\r\nX: 1.png'],
  }
  const answer = (text: string, headers = {}) => ({
    status: 201,
    headers: { 'content-type': 'application/json', ...headers },
    text,
  })

  it('breaks on a raw value, raw or JSON-escaped, in the body or a header, and names no value', () => {
    const ok = JSON.stringify({ success: true, data: { name: 'catX 1.png' } })
    expect(brokenInvariant(req, answer(ok), checks)).toBeUndefined()
    for (const a of [
      answer(JSON.stringify({ success: true, data: { name: 'cat\r\nX: 1.png' } })),
      answer(ok, { 'x-name': 'cat\r\nX: 1.png' }),
    ])
      expect(brokenInvariant(req, a, checks)).toBe(
        'answered 201 holding what a hostile request (filename-crlf) sent (a raw filename or cookie): an answer must never echo it',
      )
  })
})
