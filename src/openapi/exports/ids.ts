import { createHash, randomUUID } from 'node:crypto'

/** Makes the IDs of one export: random, or derived from a seed and each item's stable key. */
export type IdSource = (key: string) => string

/**
 * With a seed, an ID is a UUID (version 8, RFC 9562) from SHA-256 of the seed and the item's key
 * (its method and path, its folder's name…), so the same document and seed give the same IDs and
 * adding an operation changes no other ID. Without one, `crypto.randomUUID()`.
 */
export function idSource(seed: string | undefined): IdSource {
  if (seed === undefined) return () => randomUUID()
  return (key) => {
    const bytes = createHash('sha256').update(seed).update('\0').update(key).digest()
    bytes[6] = (bytes[6]! & 0x0f) | 0x80
    bytes[8] = (bytes[8]! & 0x3f) | 0x80
    const hex = bytes.subarray(0, 16).toString('hex')
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
  }
}

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** A UUID written as 21 alphanumeric characters (Bruno's uid shape), keeping 125 of its bits. */
export function alphanumeric21(uuid: string): string {
  let n = BigInt(`0x${uuid.replace(/-/g, '')}`)
  let out = ''
  for (let i = 0; i < 21; i++) {
    out = alphabet[Number(n % 62n)] + out
    n /= 62n
  }
  return out
}
