import { maskedText, type SecretPlaces } from './credential-places.js'

// A request as one shell command line that replays it byte for byte but for its credentials: the
// fuzzer prints it with each failure, and the `shapeguard fuzz` command, each credential masked.

// Control characters (C0 and DEL) need bash's $'…' quoting to survive a copy and paste.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const control = /[\x00-\x1f\x7f]/

/** A word quoted for a POSIX shell; control characters in bash's `$'…'`. */
export function shellQuote(s: string): string {
  if (!control.test(s)) return `'${s.replace(/'/g, `'\\''`)}'`
  const hex = (c: string) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`
  return `$'${s.replace(/[\\']/g, '\\$&').replace(new RegExp(control, 'g'), hex)}'`
}

// A run of one byte this long is written as `head -c N /dev/zero | tr …`, not byte by byte: an
// upload's filler stays one short command however large the file.
const RUN = 256

const octal = (byte: number) => `\\${byte.toString(8).padStart(3, '0')}`

/** Bytes as a printf format that prints exactly them: printable ASCII as is, the rest in octal. */
function printfFormat(bytes: Uint8Array): string {
  let out = ''
  for (const byte of bytes) {
    if (byte === 0x25) out += '%%'
    else if (byte === 0x5c) out += '\\\\'
    // A leading `-` would be read as an option of printf.
    else if (byte === 0x27 || byte < 0x20 || byte > 0x7e || (byte === 0x2d && out === ''))
      out += octal(byte)
    else out += String.fromCharCode(byte)
  }
  return `printf '${out}'`
}

/** The commands that write `body` to stdout, each byte as it is (NUL included). */
function bodyWriter(body: Uint8Array): string {
  const commands: string[] = []
  let start = 0
  let i = 0
  while (i < body.length) {
    let end = i + 1
    while (end < body.length && body[end] === body[i]) end++
    if (end - i >= RUN) {
      if (i > start) commands.push(printfFormat(body.subarray(start, i)))
      const fill = body[i] === 0 ? '' : ` | tr '\\000' '${octal(body[i]!)}'`
      commands.push(`head -c ${end - i} /dev/zero${fill}`)
      start = end
    }
    i = end
  }
  if (start < body.length || commands.length === 0)
    commands.push(printfFormat(body.subarray(start)))
  return commands.length === 1 ? commands[0]! : `{ ${commands.join('; ')}; }`
}

// A signed cookie's value as cookie-parser reads it (`s:`, raw or percent-encoded) ends in a dot
// and the HMAC of the app's secret, which the fuzzer signs with: a log must not show it.
function maskPair(pair: string): string {
  const value = pair
    .slice(pair.indexOf('=') + 1)
    .trimStart()
    .toLowerCase()
  const dot = pair.lastIndexOf('.')
  const signed = value.startsWith('s:') || value.startsWith('s%3a')
  return signed && dot > pair.indexOf('=') ? `${pair.slice(0, dot + 1)}***` : pair
}

/** A Cookie header with the signature of each signed cookie shown as `***` (`s:value.***`). */
export function maskSignatures(cookie: string): string {
  return cookie.split(';').map(maskPair).join(';')
}

const MASK = '***'

// A credential header's value as shown: `Bearer ***` keeps the scheme, which is no secret.
const maskedValue = (name: string, value: string) => {
  const scheme = name === 'authorization' ? /^([A-Za-z][\w!#$%&'*+.^`|~-]*) +\S/.exec(value) : null
  return scheme === null ? MASK : `${scheme[1]} ${MASK}`
}

function pairName(pair: string): string {
  const eq = pair.indexOf('=')
  return (eq === -1 ? pair : pair.slice(0, eq)).trim()
}

function decoded(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '))
  } catch {
    return name
  }
}

/** The URL with the value of each credential query parameter (`names`) shown as `***`. */
export function maskedUrl(url: string, names: ReadonlySet<string>): string {
  const at = url.indexOf('?')
  if (at === -1 || names.size === 0) return url
  const pairs = url.slice(at + 1).split('&')
  const shown = pairs.map((pair) => {
    const eq = pair.indexOf('=')
    return eq !== -1 && names.has(decoded(pair.slice(0, eq)))
      ? `${pair.slice(0, eq)}=${MASK}`
      : pair
  })
  return `${url.slice(0, at + 1)}${shown.join('&')}`
}

/** A header's value as a log may show it: credentials and cookie signatures as `***`. */
export function shownHeader(
  name: string,
  value: string,
  secrets: SecretPlaces | undefined,
): string {
  const lower = name.toLowerCase()
  if (secrets?.headers.has(lower)) return maskedValue(lower, value)
  if (lower !== 'cookie') return value
  const cookies = secrets?.cookies
  return maskSignatures(value)
    .split(';')
    .map((pair) =>
      cookies?.has(pairName(pair)) ? `${pair.slice(0, pair.indexOf('=') + 1)}${MASK}` : pair,
    )
    .join(';')
}

// A binary body with each credential value of `secrets` in it (its bytes read as Latin-1) masked.
function maskedBytes(body: Uint8Array, secrets: SecretPlaces | undefined): Uint8Array {
  if ((secrets?.values ?? []).length === 0) return body
  let text = ''
  for (const byte of body) text += String.fromCharCode(byte)
  const shown = maskedText(text, secrets)
  return shown === text ? body : Uint8Array.from(shown, (c) => c.charCodeAt(0))
}

// A request that asks for a stream (SSE, NDJSON) is replayed with `-N`: curl shows each event as
// it comes instead of buffering.
const streaming = (headers: Readonly<Record<string, string>>) =>
  Object.entries(headers).some(
    ([name, value]) =>
      name.toLowerCase() === 'accept' &&
      /^\s*(text\/event-stream|application\/x-ndjson)\b/i.test(value),
  )

/**
 * A request as one command line a POSIX shell runs as is: a text body with `--data-raw`, a binary
 * one (a `multipart/form-data` upload) written by `printf` (and `head … | tr` for long runs of one
 * byte) into `curl --data-binary @-`, so that NUL, CR and quotes in a filename replay exactly.
 * The line goes to logs: a signed cookie's signature is shown as `***` (`s:value.***`), and so is
 * the value of each credential `secrets` names (`Authorization: Bearer ***`, an API key's header,
 * query parameter or cookie), masked before the line is quoted; the credential values `secrets`
 * holds (`withValues`) are masked wherever they appear (URL, headers, body). A request whose
 * `Accept` asks for a stream (`text/event-stream`, `application/x-ndjson`) gets `-N` (`--no-buffer`).
 * @param secrets where credentials travel; default none
 * @example curlLine('POST', 'http://localhost:3000/users', { 'content-type': 'application/json' }, '{}')
 */
export function curlLine(
  method: string,
  url: string,
  headers: Readonly<Record<string, string>>,
  body: string | Uint8Array | undefined,
  secrets?: SecretPlaces,
): string {
  const words = [
    'curl',
    ...(streaming(headers) ? ['-N'] : []),
    '--globoff',
    '-X',
    method,
    shellQuote(maskedText(maskedUrl(url, secrets?.query ?? new Set()), secrets)),
  ]
  for (const [name, value] of Object.entries(headers))
    words.push(
      '-H',
      shellQuote(`${name}: ${maskedText(shownHeader(name, value, secrets), secrets)}`),
    )
  if (typeof body === 'string') words.push('--data-raw', shellQuote(maskedText(body, secrets)))
  if (typeof body !== 'object') return words.join(' ')
  words.push('--data-binary', '@-')
  return `${bodyWriter(maskedBytes(body, secrets))} | ${words.join(' ')}`
}
