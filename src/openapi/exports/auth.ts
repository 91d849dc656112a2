import { isObject } from '../../shared/is-object.js'
import { deref, entries, type Json, own, ownObject, ownString } from './document.js'
import type { ExportAuth, ExtraKey, OAuthGrant } from './model.js'
import { inert, oneLine } from './text.js'
import type { VariableTable } from './variables.js'

/** A security requirement mapped: the request's auth and the apiKeys it needs besides. */
export interface ResolvedAuth {
  readonly auth: ExportAuth
  readonly extraKeys: ExtraKey[]
}

const none: ResolvedAuth = { auth: { type: 'none' }, extraKeys: [] }

const grants: Array<[string, OAuthGrant]> = [
  ['authorizationCode', 'authorization_code'],
  ['implicit', 'implicit'],
  ['password', 'password'],
  ['clientCredentials', 'client_credentials'],
]

function url(flow: Json | undefined, key: string): string {
  return inert(oneLine(ownString(flow, key) ?? '', 2000))
}

function secret(vars: VariableTable, scheme: string, role: string, description: string): string {
  return vars.name(`auth:${scheme}:${role}`, `${scheme} ${role}`, '', true, description)
}

function apiKeyPlace(value: unknown): 'header' | 'query' | 'cookie' | undefined {
  return value === 'header' || value === 'query' || value === 'cookie' ? value : undefined
}

/** Maps one security scheme to a tool-neutral auth; `undefined` when no tool can express it. */
function schemeAuth(
  scheme: Json,
  schemeName: string,
  scopes: unknown,
  vars: VariableTable,
): ExportAuth | undefined {
  const label = oneLine(schemeName, 60)
  const type = own(scheme, 'type')
  if (type === 'http') {
    const kind = ownString(scheme, 'scheme')?.toLowerCase()
    if (kind === 'bearer') {
      return { type: 'bearer', token: secret(vars, label, 'token', `Bearer token (${label})`) }
    }
    if (kind === 'basic' || kind === 'digest') {
      return {
        type: kind,
        username: secret(vars, label, 'username', `User name (${label})`),
        password: secret(vars, label, 'password', `Password (${label})`),
      }
    }
    return undefined
  }
  if (type === 'apiKey') {
    const place = apiKeyPlace(own(scheme, 'in'))
    const name = inert(oneLine(ownString(scheme, 'name') ?? '', 200))
    if (place === undefined || name === '') return undefined
    const value = vars.name(
      `auth:${label}:key`,
      label,
      '',
      true,
      `API key (${label}, ${place} ${name})`,
    )
    return { type: 'apiKey', in: place, name, value }
  }
  if (type === 'oauth2') {
    const flows = ownObject(scheme, 'flows')
    const found = grants.find(([key]) => isObject(own(flows, key)))
    if (found === undefined) return undefined
    const flow = ownObject(flows, found[0])
    const wanted = Array.isArray(scopes) ? scopes.filter((s) => typeof s === 'string') : []
    const all = entries(own(flow, 'scopes')).map(([s]) => s)
    return {
      type: 'oauth2',
      grant: found[1],
      authorizationUrl: url(flow, 'authorizationUrl'),
      tokenUrl: url(flow, 'tokenUrl'),
      refreshUrl: url(flow, 'refreshUrl'),
      scopes: (wanted.length > 0 ? wanted : all).map((s) => inert(oneLine(s, 200))),
      clientId: secret(vars, label, 'client id', `OAuth 2.0 client ID (${label})`),
      clientSecret: secret(vars, label, 'client secret', `OAuth 2.0 client secret (${label})`),
      redirectUrl: vars.name(
        `auth:${label}:redirect`,
        `${label} redirect url`,
        'http://localhost:3000/oauth2/callback',
        false,
        `OAuth 2.0 redirect URL registered for the client (${label})`,
      ),
    }
  }
  if (type === 'openIdConnect') {
    // The tools cannot run discovery offline: the token is pasted, as a bearer token.
    return {
      type: 'bearer',
      token: secret(vars, label, 'token', `OpenID Connect token (${label})`),
    }
  }
  return undefined
}

/**
 * Maps a `security` array (alternatives, each an AND of schemes) to one auth: the first
 * alternative whose schemes all map; within it the first non-apiKey scheme (else the first
 * apiKey) is the auth and the other apiKeys are sent as extra headers, query or cookies.
 */
export function resolveSecurity(
  doc: unknown,
  security: unknown,
  vars: VariableTable,
): ResolvedAuth {
  if (!Array.isArray(security)) return none
  const schemes = ownObject(ownObject(doc, 'components'), 'securitySchemes')
  for (const requirement of security.slice(0, 32)) {
    const names = entries(requirement)
    if (names.length === 0) continue
    const mapped: Array<[string, ExportAuth]> = []
    for (const [name, scopes] of names.slice(0, 16)) {
      const scheme = deref(doc, own(schemes, name))
      const auth = scheme && schemeAuth(scheme, name, scopes, vars)
      if (auth === undefined) break
      mapped.push([name, auth])
    }
    if (mapped.length !== names.slice(0, 16).length || mapped.length === 0) continue
    const main = mapped.find(([, a]) => a.type !== 'apiKey') ?? mapped[0]!
    const extraKeys: ExtraKey[] = []
    for (const [, auth] of mapped) {
      if (auth !== main[1] && auth.type === 'apiKey') {
        extraKeys.push({ in: auth.in, name: auth.name, variable: auth.value })
      }
    }
    return { auth: main[1], extraKeys }
  }
  return none
}
