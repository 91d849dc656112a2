import { describe, expect, it } from 'vitest'
import { checkSecurity, resolveSchemes } from '../../src/shared/resolve-schemes.js'

// `auth` is checked once, at mount: every mistake a TypeError naming the field, never a crash
// later (a challenge Node cannot send would make every 401 of the route a 500).

const verify = () => ({})
const refuses = (auth: unknown, message: RegExp) =>
  expect(() => resolveSchemes(auth)).toThrow(
    expect.objectContaining({ message: expect.stringMatching(message) }),
  )

describe('resolveSchemes', () => {
  it('reads a verifier alone as bearer or basic by its name only', () => {
    const schemes = resolveSchemes({ bearer: verify, basic: verify })
    expect([...schemes.values()].map((s) => [s.kind, s.document])).toEqual([
      ['bearer', { type: 'http', scheme: 'bearer' }],
      ['basic', { type: 'http', scheme: 'basic' }],
    ])
    refuses({ token: verify }, /^shapeguard: auth\.token: a verifier alone is the bearer or basic/)
  })

  it('refuses a scheme name the CLI could not read back, and a misspelt field', () => {
    refuses(
      { '2fa': { type: 'bearer', verify } },
      /auth\.2fa: a scheme name must start with a letter/,
    )
    refuses({ 'a b': { type: 'bearer', verify } }, /a scheme name must start/)
    refuses({ bearer: { type: 'bearer', verify, realm: 'a"b' } }, /auth\.bearer\.realm/)
    refuses(
      { bearer: { type: 'bearer', verfy: verify } },
      /auth\.bearer\.verify: must be a function/,
    )
    refuses(
      { key: { in: 'body', name: 'k', verify } },
      /auth\.key\.in: must be 'header', 'query' or 'cookie'/,
    )
  })

  it("refuses a custom scheme's document whose default challenge could not be sent", () => {
    refuses(
      { s: { type: 'custom', verify, document: { type: 'http' } } },
      /auth\.s\.document\.scheme/,
    )
    refuses(
      { s: { type: 'custom', verify, document: { type: 'http', scheme: 'Bé arer' } } },
      /auth\.s\.document\.scheme/,
    )
    refuses(
      { s: { type: 'custom', verify, document: { type: 'apiKey', in: 'cookie', name: 'a"b' } } },
      /auth\.s\.document: an apiKey document needs in/,
    )
    const [session] = resolveSchemes({
      session: { type: 'custom', verify, document: { type: 'apiKey', in: 'cookie', name: 'sid' } },
    }).values()
    expect(session).toMatchObject({ challenge: 'ApiKey realm="api", in="cookie", name="sid"' })
  })

  it('checks a security requirement against the declared names', () => {
    const schemes = resolveSchemes({ bearer: verify })
    expect(() => checkSecurity(['bearer', ['bearer']], 'security', schemes)).not.toThrow()
    expect(() => checkSecurity([[]], 'security', schemes)).toThrow(/security: must be an array/)
    expect(() => checkSecurity(['nope'], 'security', schemes)).toThrow(
      expect.objectContaining({ code: 'SG_ERR_UNKNOWN_NAME' }),
    )
  })
})
