// Addresses that mean "every interface": a client cannot send a request to one.
const wildcards = new Set(['', '0.0.0.0', '::', '[::]', '::0'])

/**
 * The URL clients reach the demo at, from the host and port it listens on: a wildcard address
 * (`0.0.0.0`, `::`) advertises `localhost`; an IPv6 address goes in brackets.
 * @example serverUrl('0.0.0.0', 4101) // 'http://localhost:4101'
 */
export function serverUrl(host: string, port: number): string {
  const name = wildcards.has(host) ? 'localhost' : host
  return `http://${name.includes(':') && !name.startsWith('[') ? `[${name}]` : name}:${port}`
}
