/** What a redacted value is replaced with. */
export const REDACTED = '[REDACTED]'

/**
 * Key names always redacted, compared after `normalizeKey` (so `Access-Token`, `access_token` and
 * `ACCESS.TOKEN` are all `accesstoken`); `logger.redact` can only add to them. A floor at least as
 * wide as Sentry's default scrubber, tuned against false positives: `token` is matched at the end
 * of a key (`refresh_token`, `pageToken`) so `tokenCount` and `max_tokens` stay readable, and
 * `secret` likewise, so `secretary` stays.
 */
export const ALWAYS_REDACTED = Object.freeze({
  /**
   * A key containing one of these anywhere (`passwordHash`, `secret_key_base`,
   * `private_key_pem`, `api_key_value`, `authorizationHeader`).
   */
  containing: Object.freeze([
    'password',
    'passwd',
    'passphrase',
    'secretkey',
    'apikey',
    'privatekey',
    'authorization',
    'credential',
  ]),
  /** A key ending with one of these (`client_secret`, `x-api-key`, `proxy-authorization`). */
  endingWith: Object.freeze([
    'token',
    'secret',
    'secretaccesskey',
    'pwd',
    'auth',
    'cookie',
    'session',
    'sessionid',
    'sessid',
    'csrf',
    'xsrf',
    'jwt',
    'cardnumber',
    'cvv',
    'cvc',
    'ssn',
  ]),
  /** A key equal to one of these. `rawheaders` is Node's name/value list: its values are secret. */
  named: Object.freeze([
    'authheader',
    'dsn',
    'databaseurl',
    'connectionstring',
    'tokens',
    'secrets',
    'cookies',
    'signedcookies',
    'apikeys',
    'pin',
    'pincode',
    'otp',
    'bearer',
    'connectsid',
    'ccnumber',
    'ccnum',
    'cardno',
    'cardnum',
    'creditcard',
    'cvv2',
    'cvc2',
    'securitycode',
    'socialsecuritynumber',
    'xforwardedfor',
    'xrealip',
    'rawheaders',
  ]),
})

/** Deeper values are replaced by `[Truncated]`: logs must never overflow the stack. */
export const MAX_LOG_DEPTH = 32

const SEPARATORS = /[-_.]/g

/** A key as redaction compares it: lower-case, without `-`, `_` and `.`. */
export function normalizeKey(key: string): string {
  const lower = key.toLowerCase()
  SEPARATORS.lastIndex = 0
  return SEPARATORS.test(lower) ? lower.replace(SEPARATORS, '') : lower
}

const NAMED = new Set(ALWAYS_REDACTED.named)

/** Whether a normalised key is one of the always-redacted names. */
export function isSecretKey(key: string): boolean {
  if (NAMED.has(key)) return true
  for (const end of ALWAYS_REDACTED.endingWith) if (key.endsWith(end)) return true
  for (const part of ALWAYS_REDACTED.containing) if (key.includes(part)) return true
  return false
}
