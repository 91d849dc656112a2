import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

// Each string is reduced to an HMAC under a key no one outside this process knows: the two
// digests have one length whatever the strings' are, and where the strings differ says nothing
// about where their digests do.
const KEY = randomBytes(32)

// UTF-16 code units as they are (`utf16le`): UTF-8 would turn every lone surrogate into U+FFFD
// and so make two different strings equal.
function digest(text: string): Buffer {
  return createHmac('sha256', KEY).update(text, 'utf16le').digest()
}

/**
 * Compares a credential a request gave with the expected one in constant time: how long it takes
 * depends on the lengths of the two strings, never on how much of `given` matches `expected`, so
 * a client timing its guesses learns nothing. Never throws; anything but two strings (an unset
 * environment variable) is never equal.
 * @param given the credential the request carries
 * @param expected the secret it must equal
 * @example
 * shapeguard({
 *   auth: {
 *     apiKey: {
 *       in: 'header',
 *       name: 'X-API-Key',
 *       verify: (key) => (safeEqual(key, process.env.API_KEY!) ? { client: 'ci' } : undefined),
 *     },
 *   },
 * })
 */
export function safeEqual(given: string, expected: string): boolean {
  if (typeof given !== 'string' || typeof expected !== 'string') return false
  return timingSafeEqual(digest(given), digest(expected))
}
