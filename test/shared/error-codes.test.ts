import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ErrorCode } from '../../src/index.js'
import { raise } from '../../src/runtime/core/app-error.js'
import { type ErrorCodeEntry, errorCodes } from '../../src/shared/error-codes.js'

// Every code shapeguard answers with and its status: its own, the body parser's (malformed JSON,
// an oversized body), a failing rate-limit store's and the host's other client errors.
const specified: Record<string, number> = {
  VALIDATION_ERROR: 422,
  NOT_FOUND: 404,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  CONFLICT: 409,
  INTERNAL_ERROR: 500,
  METHOD_NOT_ALLOWED: 405,
  BODY_TOO_DEEP: 400,
  BODY_ARRAY_TOO_LARGE: 400,
  STRING_TOO_LONG: 400,
  INVALID_CONTENT_TYPE: 415,
  PARAM_POLLUTION: 400,
  PROTO_POLLUTION: 400,
  RATE_LIMIT_EXCEEDED: 429,
  RATE_LIMIT_UNAVAILABLE: 503,
  HANDLER_TIMEOUT: 503,
  OVERLOADED: 503,
  SHUTTING_DOWN: 503,
  NOT_READY: 503,
  WEBHOOK_SIGNATURE_MISSING: 400,
  WEBHOOK_SIGNATURE_INVALID: 401,
  WEBHOOK_TIMESTAMP_MISSING: 400,
  WEBHOOK_TIMESTAMP_EXPIRED: 400,
  INVALID_JSON: 400,
  PAYLOAD_TOO_LARGE: 413,
  BAD_REQUEST: 400,
}

interface Row {
  status: number
  raisedBy: string
}

function readmeRows(): Record<string, Row> {
  const readme = readFileSync(
    join(import.meta.dirname, '../../docs/responses-and-errors.md'),
    'utf8',
  )
  const section = readme.split('### Error codes')[1]?.split(/\n#{2,3} /)[0] ?? ''
  const rows = [...section.matchAll(/^\| `([A-Z_]+)` +\| (\d{3}) +\| (.*?) *\|$/gm)]
  return Object.fromEntries(rows.map((m) => [m[1], { status: Number(m[2]), raisedBy: m[3] ?? '' }]))
}

function readmeTable(): Record<string, number> {
  return Object.fromEntries(Object.entries(readmeRows()).map(([code, row]) => [code, row.status]))
}

const reserved = /^reserved: raised by .+, not built yet/

/** Every source file under src/, by path, except the registry itself. */
function sourceFiles(): Map<string, string> {
  const root = join(import.meta.dirname, '../../src')
  return new Map(
    readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('error-codes.ts'))
      .map((file) => [file.replaceAll('\\', '/'), readFileSync(join(root, file), 'utf8')]),
  )
}

function sources(): string {
  return [...sourceFiles().values()].join('\n')
}

describe('errorCodes', () => {
  it('uses each code as its own key', () => {
    for (const [key, entry] of Object.entries(errorCodes)) expect(entry.code).toBe(key)
  })

  it('holds every specified code with its status, and nothing else', () => {
    const registry = Object.fromEntries(
      Object.values(errorCodes).map((entry) => [entry.code, entry.status]),
    )
    expect(registry).toEqual(specified)
  })

  it('is exported as a frozen object whose keys and values are the codes', () => {
    expect(Object.isFrozen(ErrorCode)).toBe(true)
    expect(ErrorCode.NOT_FOUND).toBe('NOT_FOUND')
    expect(ErrorCode).toEqual(Object.fromEntries(Object.keys(specified).map((c) => [c, c])))
  })

  it('raises every code the README does not mark as reserved, and marks those not raised', () => {
    const src = sources()
    const raised = (code: string) =>
      new RegExp(`['"\`]${code}['"\`]|(errorCodes|ErrorCode)\\.${code}\\b`).test(src)
    for (const [code, row] of Object.entries(readmeRows())) {
      if (reserved.test(row.raisedBy)) continue
      expect(raised(code), `${code} is not raised anywhere in src/`).toBe(true)
    }
  })

  it('marks as reserved exactly the codes the README marks as not built yet', () => {
    const rows = readmeRows()
    for (const entry of Object.values(errorCodes) as ErrorCodeEntry[]) {
      expect(reserved.test(rows[entry.code]?.raisedBy ?? ''), entry.code).toBe(
        entry.reserved !== undefined,
      )
      if (entry.reserved !== undefined) expect(rows[entry.code]?.raisedBy).toContain(entry.reserved)
    }
  })

  it('gives every code a default message, and exposes all but INTERNAL_ERROR', () => {
    for (const entry of Object.values(errorCodes) as ErrorCodeEntry[]) {
      expect(entry.message, entry.code).toMatch(/^[A-Z].*[^.]$/)
      expect(entry.exposed, entry.code).toBe(entry.code !== 'INTERNAL_ERROR')
    }
  })

  it('raises from the registry: its status, its default message, its exposure', () => {
    const conflict = raise('CONFLICT')
    expect([conflict.statusCode, conflict.message, conflict.details]).toEqual([
      409,
      'Resource already exists',
      null,
    ])
    expect(conflict.isOperational).toBe(true)
    const internal = raise('INTERNAL_ERROR', 'broken', null, { cause: 1 })
    expect([internal.statusCode, internal.isOperational, internal.cause]).toEqual([500, false, 1])
    expect(raise('INTERNAL_ERROR', undefined, null, { isOperational: true }).isOperational).toBe(
      true,
    )
    expect(raise('BAD_REQUEST', 'Nope', { at: 'x' }).details).toEqual({ at: 'x' })
  })

  it('is the only way shapeguard makes an AppError (no status literals outside the registry)', () => {
    const makers = [...sourceFiles()]
      .filter(([, text]) => /new AppError\b/.test(text))
      .map(([file]) => file)
    expect(makers).toEqual(['runtime/core/app-error.ts'])
    const appError = sourceFiles().get('runtime/core/app-error.ts') ?? ''
    // Inside app-error.ts: raise() itself and the factories for codes of the user's own.
    const code = appError.split('\n').filter((line) => !/^\s*(\*|\/\/)/.test(line))
    expect(code.filter((line) => /new AppError\b/.test(line))).toHaveLength(4)
  })

  it('matches the README table row for row', () => {
    const table = readmeTable()
    expect(Object.keys(table)).toHaveLength(Object.keys(errorCodes).length)
    expect(table).toEqual(
      Object.fromEntries(Object.values(errorCodes).map((entry) => [entry.code, entry.status])),
    )
  })
})
