import { isIPv4, isIPv6 } from 'node:net'
import { ipKeyGenerator } from 'express-rate-limit'

// The longest address a proxy writes is under 60 characters (an IPv6 address with an embedded
// IPv4 one, brackets, a port and a zone); anything longer is not one, and is never parsed.
const MAX_LENGTH = 100

/**
 * The client an address counts for, or undefined when it is not an IP address: one spelling per
 * client, whatever a proxy wrote in `X-Forwarded-For`. A port is dropped (`1.2.3.4:80`,
 * `[2001:db8::1]:443`); IPv4 is kept as is, an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) is its
 * IPv4 address, and any other IPv6 address is its /56 prefix in canonical form
 * (`2001:db8::/56`), so case, zero compression, leading zeros and a zone give one key. IPv4 with
 * a leading zero (`01.2.3.4`) is not an address: parsers disagree on it (octal for inet_aton,
 * decimal for others), node:net refuses it, and no proxy writes one.
 */
export function clientAddress(ip: string): string | undefined {
  if (ip.length > MAX_LENGTH) return undefined
  const colon = ip.lastIndexOf(':')
  // No colon: IPv4 or nothing (node's isIPv6 is the longer check, so it runs only on a colon).
  if (colon < 0) return isIPv4(ip) ? ip : undefined
  if (isIPv6(ip)) return ipKeyGenerator(ip, 56)
  if (ip.charCodeAt(0) === 0x5b) {
    // [IPv6] or [IPv6]:port
    const close = ip.indexOf(']')
    if (close !== ip.length - 1 && (close !== colon - 1 || !isPort(ip, colon + 1))) return undefined
    const inner = ip.slice(1, close)
    return isIPv6(inner) ? ipKeyGenerator(inner, 56) : undefined
  }
  // IPv4:port (an IPv6 address without brackets has no port: its last group is not one)
  const host = ip.slice(0, colon)
  return isIPv4(host) && isPort(ip, colon + 1) ? host : undefined
}

/** Whether `text` from `start` is a port: 1 to 5 digits, 65535 at most, no sign or space. */
function isPort(text: string, start: number): boolean {
  const length = text.length - start
  if (length < 1 || length > 5) return false
  let port = 0
  for (let i = start; i < text.length; i++) {
    const digit = text.charCodeAt(i) - 0x30
    if (digit < 0 || digit > 9) return false
    port = port * 10 + digit
  }
  return port <= 65535
}
