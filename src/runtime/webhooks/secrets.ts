import { createSecretKey, type KeyObject } from 'node:crypto'
import { optionError } from '../../shared/error-codes.js'

const WHSEC = 'whsec_'

// Base64 as the Svix and Standard Webhooks SDKs decode it: standard alphabet, optional padding.
function decodeBase64(text: string): Buffer | undefined {
  const bytes = Buffer.from(text, 'base64')
  const unpadded = (s: string) =>
    s.endsWith('==') ? s.slice(0, -2) : s.endsWith('=') ? s.slice(0, -1) : s
  return bytes.length > 0 && unpadded(bytes.toString('base64')) === unpadded(text)
    ? bytes
    : undefined
}

/**
 * The secret option as keys, checked when the middleware is created: one non-empty string or a
 * non-empty array of them (rotation). `whsec` secrets are base64-decoded after `whsec_`. Each
 * becomes a KeyObject once, so a request's HMAC does not copy the key again.
 */
export function resolveKeys(secret: unknown, kind: 'utf8' | 'whsec'): KeyObject[] {
  const list: readonly unknown[] = Array.isArray(secret) ? secret : [secret]
  if (list.length === 0) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      'shapeguard: verifyWebhook(): secret must not be an empty array',
    )
  }
  return list.map((value, i) => {
    const name = Array.isArray(secret) ? `secret[${i}]` : 'secret'
    if (typeof value !== 'string' || value === '') {
      throw optionError(
        'SG_ERR_INVALID_OPTION',
        `shapeguard: verifyWebhook(): ${name} must be a non-empty string`,
      )
    }
    if (kind === 'utf8') return createSecretKey(Buffer.from(value, 'utf8'))
    const bytes = decodeBase64(value.startsWith(WHSEC) ? value.slice(WHSEC.length) : value)
    if (bytes === undefined) {
      throw optionError(
        'SG_ERR_INVALID_OPTION',
        `shapeguard: verifyWebhook(): ${name} must be a base64 signing secret (whsec_…), as the provider shows it`,
      )
    }
    return createSecretKey(bytes)
  })
}
