import { type MisuseCode, misuseCodes } from '../../src/shared/misuse-codes.js'

/**
 * The error a misuse throws, to compare a thrown one with (`toThrow(misuse(code, message))`): its
 * class, its code and its message.
 */
export function misuse(code: MisuseCode, message: string): Error {
  const error = misuseCodes[code].type === 'TypeError' ? new TypeError(message) : new Error(message)
  return Object.assign(error, { code })
}
