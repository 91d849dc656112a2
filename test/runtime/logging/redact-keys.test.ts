import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createRedactor } from '../../../src/runtime/logging/redactor.js'

const redact = createRedactor()

// Real-world spellings, from HTTP headers, OAuth, cloud SDKs, frameworks and payment forms.
const SECRET_KEYS = [
  'secret_key_base',
  'private_key_pem',
  'authHeader',
  'authorizationHeader',
  'api_key_value',
  'dsn',
  'DATABASE_URL',
  'connectionString',
  'aws_credentials_file',
  'password',
  'Password',
  'PASSWORD',
  'passwd',
  'pass_word',
  'passwordHash',
  'password_hash',
  'new_password',
  'newPassword',
  'currentPassword',
  'old-password',
  'password_confirmation',
  'passwordConfirmation',
  'confirm_password',
  'passphrase',
  'mysql_pwd',
  'pwd',
  'secret',
  'client_secret',
  'clientSecret',
  'webhookSecret',
  'aws_secret_access_key',
  'SecretAccessKey',
  'secret_key',
  'token',
  'access_token',
  'accessToken',
  'Access-Token',
  'ACCESS.TOKEN',
  'ACCESS_TOKEN',
  'refresh_token',
  'refreshToken',
  'id_token',
  'sessionToken',
  'x-auth-token',
  'X-Amz-Security-Token',
  'csrf_token',
  'csrfToken',
  'X-CSRF-Token',
  'X-XSRF-TOKEN',
  '_csrf',
  'pageToken',
  'api_key',
  'apiKey',
  'apikey',
  'API-KEY',
  'x-api-key',
  'X-Api-Key',
  'x-goog-api-key',
  'private_key',
  'privateKey',
  'authorization',
  'Authorization',
  'proxy-authorization',
  'auth',
  'oauth',
  'credentials',
  'aws.credentials',
  'cookie',
  'Cookie',
  'set-cookie',
  'Set-Cookie',
  'cookies',
  'signedCookies',
  'session',
  'sessionid',
  'JSESSIONID',
  'PHPSESSID',
  'connect.sid',
  'jwt',
  'card_number',
  'cardNumber',
  'creditCardNumber',
  'cc_number',
  'cvv',
  'CVV2',
  'cvc',
  'card_cvc',
  'security_code',
  'ssn',
  'customer_ssn',
  'pin',
  'otp',
  'x-forwarded-for',
  'rawHeaders',
]

// Keys that look close to a secret but are not one: redacting them would hide what logs are for.
const ORDINARY_KEYS = [
  'id',
  'name',
  'email',
  'tokenCount',
  'max_tokens',
  'prompt_tokens',
  'token_type',
  'tokenizer',
  'secretary',
  'secretName',
  'author',
  'authorId',
  'authorized',
  'authenticated',
  'cookieConsent',
  'sessionCount',
  'publicKey',
  'keyboard',
  'primaryKey',
  'cacheKey',
  'spin',
  'pinned',
  'cardType',
  'cardLast4',
  'cardholderName',
  'expires_in',
  'status',
  'path',
  'method',
  'message',
  'accept',
  'content-type',
  'missing',
  'endpoint',
  'requestId',
  'duration_ms',
  'code',
  'stack',
  'cause',
  'ip',
  'user-agent',
]

describe('createRedactor() default key names', () => {
  it(`redacts every one of ${SECRET_KEYS.length} real-world secret spellings`, () => {
    const input = Object.fromEntries(SECRET_KEYS.map((k) => [k, `value-of-${k}`]))
    const output = redact({ nested: [input] }) as { nested: Record<string, unknown>[] }
    const leaked = SECRET_KEYS.filter((k) => output.nested[0]?.[k] !== '[REDACTED]')
    expect(leaked).toEqual([])
    expect(SECRET_KEYS.length).toBeGreaterThanOrEqual(40)
  })

  it(`keeps each of ${ORDINARY_KEYS.length} ordinary keys`, () => {
    const input = Object.fromEntries(ORDINARY_KEYS.map((k) => [k, `value-of-${k}`]))
    expect(redact({ nested: input })).toEqual({ nested: input })
  })

  it('redacts a whole object or array under a secret key', () => {
    expect(redact({ credentials: { user: 'u', pass: 'p' }, tokens: ['a', 'b'] })).toEqual({
      credentials: '[REDACTED]',
      tokens: '[REDACTED]',
    })
  })

  it('covers every always-redacted name, wherever it sits', () => {
    const spec = [
      'password',
      'passwordHash',
      'token',
      'secret',
      'accessToken',
      'refreshToken',
      'apiKey',
      'cardNumber',
      'cvv',
      'ssn',
      'pin',
    ]
    const input = Object.fromEntries(spec.map((k) => [k, 'x']))
    const output = redact({ a: { b: input } }) as { a: { b: Record<string, unknown> } }
    expect(Object.values(output.a.b).every((v) => v === '[REDACTED]')).toBe(true)
    expect(
      redact({
        headers: { authorization: 'Bearer x', cookie: 'sid=1' },
        query: { token: 't', apiKey: 'k' },
      }),
    ).toEqual({
      headers: { authorization: '[REDACTED]', cookie: '[REDACTED]' },
      query: { token: '[REDACTED]', apiKey: '[REDACTED]' },
    })
  })
})

describe('createRedactor() user entries', () => {
  it('match key names after normalisation (case, _, - and . ignored)', () => {
    const custom = createRedactor(['date_of_birth', 'X-Session-Ref'])
    expect(
      custom({ dateOfBirth: 1, 'Date-Of-Birth': 2, DATE_OF_BIRTH: 3, xSessionRef: 4, other: 5 }),
    ).toEqual({
      dateOfBirth: '[REDACTED]',
      'Date-Of-Birth': '[REDACTED]',
      DATE_OF_BIRTH: '[REDACTED]',
      xSessionRef: '[REDACTED]',
      other: 5,
    })
  })

  it('a leading * stands for any depth, the top level included', () => {
    const custom = createRedactor(['*.dob'])
    expect(custom({ dob: 1, user: { dob: 2, name: 'a' } })).toEqual({
      dob: '[REDACTED]',
      user: { dob: '[REDACTED]', name: 'a' },
    })
  })

  it('a path ending in * redacts every key and array element under it', () => {
    const custom = createRedactor(['tags.*', 'card.*'])
    expect(custom({ tags: ['a', 'b'], card: { brand: 'v', last4: '1' }, other: [1] })).toEqual({
      tags: ['[REDACTED]', '[REDACTED]'],
      card: { brand: '[REDACTED]', last4: '[REDACTED]' },
      other: [1],
    })
  })

  it('an array index in a path matches that element', () => {
    const custom = createRedactor(['items.0.serial'])
    expect(custom({ items: [{ serial: 'a' }, { serial: 'b' }] })).toEqual({
      items: [{ serial: '[REDACTED]' }, { serial: 'b' }],
    })
  })

  it('req.* paths also match the same part logged at the top level of metadata', () => {
    const custom = createRedactor(['req.headers.x-tenant-key', 'req.body.dob'])
    const headers = { 'x-tenant-key': 'k', accept: 'json' }
    expect(custom({ headers })).toEqual({
      headers: { 'x-tenant-key': '[REDACTED]', accept: 'json' },
    })
    expect(custom({ req: { headers } })).toEqual({
      req: { headers: { 'x-tenant-key': '[REDACTED]', accept: 'json' } },
    })
    expect(custom({ body: { dob: 1 } })).toEqual({ body: { dob: '[REDACTED]' } })
    // Only at the top: a nested `headers` is not the request's.
    expect(custom({ upstream: { headers } })).toEqual({ upstream: { headers } })
  })
})

describe('createRedactor() under random spellings', () => {
  const BASES = ['accesstoken', 'password', 'apikey', 'clientsecret', 'authorization', 'setcookie']

  it('never lets a default secret through, whatever the case and separators', () => {
    const spelling = fc
      .tuple(
        fc.constantFrom(...BASES),
        fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }),
        fc.array(fc.constantFrom('', '', '', '_', '-', '.', '__'), {
          minLength: 20,
          maxLength: 20,
        }),
      )
      .map(([base, upper, seps]) =>
        [...base].map((c, i) => (seps[i] ?? '') + (upper[i] ? c.toUpperCase() : c)).join(''),
      )
    fc.assert(
      fc.property(
        spelling,
        fc.array(fc.constantFrom('a', 'list'), { maxLength: 4 }),
        (key, path) => {
          let value: unknown = { [key]: 'S3CRET-VALUE' }
          for (const step of path) value = step === 'list' ? [value] : { a: value }
          expect(JSON.stringify(redact(value))).not.toContain('S3CRET-VALUE')
        },
      ),
      { numRuns: 500 },
    )
  })
})
