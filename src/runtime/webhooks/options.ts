import { createHmac, getHashes } from 'node:crypto'
import type { Request } from 'express'
import { checkFunction, checkKnownKeys } from '../../shared/check-option.js'
import { optionError } from '../../shared/error-codes.js'
import type { MisuseCode } from '../../shared/misuse-codes.js'
import { presets } from './presets.js'
import type { Verifier } from './scheme.js'
import { resolveKeys } from './secrets.js'
import { signedHeaderScheme } from './signed-header.js'
import { originUrl, type PublicUrl, requestUrl } from './twilio-url.js'
import type { VerifyWebhookOptions, WebhookFailureReason } from './types.js'

/** The options of one `verifyWebhook`, checked and resolved once. */
export interface ResolvedWebhookOptions {
  /** The preset's name, or `custom` for a scheme given by its options. */
  readonly provider: string
  readonly verify: Verifier
  readonly onSuccess: ((req: Request) => void) | undefined
  readonly onFailure: ((req: Request, reason: WebhookFailureReason) => void) | undefined
}

const DEFAULT_TOLERANCE_SECS = 300
const COMMON = ['provider', 'secret', 'onSuccess', 'onFailure']
const CUSTOM = ['headerName', 'algorithm', 'prefix', 'encoding', 'timestampHeader', 'toleranceSecs']
// An HTTP header name: RFC 9110 token characters.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

function fail(message: string, code: MisuseCode = 'SG_ERR_INVALID_OPTION'): never {
  throw optionError(code, `shapeguard: verifyWebhook(): ${message}`)
}

function hmacWorks(algorithm: string): boolean {
  try {
    createHmac(algorithm, 'x').digest()
    return true
  } catch {
    return false
  }
}

function tolerance(value: unknown): number {
  if (value === undefined) return DEFAULT_TOLERANCE_SECS
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    fail('toleranceSecs must be an integer of at least 1 (seconds)')
  }
  return value
}

function headerName(value: unknown, name: string): string {
  if (typeof value !== 'string' || !TOKEN.test(value)) fail(`${name} must be an HTTP header name`)
  return value.toLowerCase()
}

function publicUrl(value: unknown): PublicUrl {
  if (value === undefined) return requestUrl
  if (typeof value === 'function') return value as PublicUrl
  if (typeof value !== 'string') fail('publicUrl must be a string or a function')
  let url: URL | undefined
  try {
    url = new URL(value)
  } catch {}
  if (
    url === undefined ||
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.pathname !== '/' ||
    url.search !== '' ||
    url.hash !== ''
  ) {
    fail('publicUrl must be an origin such as https://api.example.com (no path or query)')
  }
  return originUrl(value)
}

function custom(options: Record<string, unknown>): Verifier {
  checkKnownKeys(options, [...COMMON, ...CUSTOM], 'verifyWebhook()', 'a custom scheme')
  const header = headerName(options.headerName, 'headerName (needed without a provider)')
  const algorithm = options.algorithm ?? 'sha256'
  if (typeof algorithm !== 'string' || !getHashes().includes(algorithm) || !hmacWorks(algorithm)) {
    fail('algorithm must be a hash of crypto.getHashes() that HMAC takes, e.g. sha256')
  }
  const prefix = options.prefix ?? ''
  if (typeof prefix !== 'string') fail('prefix must be a string')
  const encoding = options.encoding ?? 'hex'
  if (encoding !== 'hex' && encoding !== 'base64') fail("encoding must be 'hex' or 'base64'")
  if (options.timestampHeader === undefined && options.toleranceSecs !== undefined) {
    fail(
      'toleranceSecs needs timestampHeader (the header the sender signs its time in)',
      'SG_ERR_OPTION_CONFLICT',
    )
  }
  const timestamp =
    options.timestampHeader === undefined
      ? undefined
      : {
          header: headerName(options.timestampHeader, 'timestampHeader'),
          toleranceSecs: tolerance(options.toleranceSecs),
        }
  const keys = resolveKeys(options.secret, 'utf8')
  return signedHeaderScheme(keys, {
    header,
    algorithm,
    encoding,
    prefix,
    ...(timestamp === undefined ? {} : { timestamp }),
  })
}

/** Checks `verifyWebhook`'s options (a TypeError naming the option) and builds its check. */
export function resolveWebhookOptions(options: VerifyWebhookOptions): ResolvedWebhookOptions {
  if (typeof options !== 'object' || options === null) {
    fail('options must be an object: { provider, secret } or { headerName, secret, … }')
  }
  const raw = options as unknown as Record<string, unknown>
  const onSuccess = checkFunction(
    raw.onSuccess,
    'verifyWebhook(): onSuccess',
  ) as ResolvedWebhookOptions['onSuccess']
  const onFailure = checkFunction(
    raw.onFailure,
    'verifyWebhook(): onFailure',
  ) as ResolvedWebhookOptions['onFailure']
  const provider = raw.provider
  if (provider === undefined)
    return { provider: 'custom', verify: custom(raw), onSuccess, onFailure }
  if (typeof provider !== 'string' || !Object.hasOwn(presets, provider)) {
    fail(`provider must be one of ${Object.keys(presets).join(', ')}`)
  }
  const preset = presets[provider as keyof typeof presets]
  checkKnownKeys(raw, [...COMMON, ...preset.options], 'verifyWebhook()', `the ${provider} preset`)
  const verify = preset.build({
    keys: resolveKeys(raw.secret, preset.secret),
    toleranceSecs: tolerance(raw.toleranceSecs),
    publicUrl: publicUrl(raw.publicUrl),
  })
  return { provider, verify, onSuccess, onFailure }
}
