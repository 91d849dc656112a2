import type { ExportAuth, ExportBody } from './model.js'

// The pieces of a Bruno request that map one model value each: auth, body, Content-Type, file name.

/** Makes a uid (21 alphanumeric characters) from an item's stable key. */
export type Uid = (key: string) => string

/** A model auth as Bruno's auth object (`mode` and the mode's fields). */
export function brunoAuth(auth: ExportAuth): Record<string, unknown> {
  switch (auth.type) {
    case 'none':
      return { mode: 'none' }
    case 'bearer':
      return { mode: 'bearer', bearer: { token: `{{${auth.token}}}` } }
    case 'basic':
    case 'digest':
      return {
        mode: auth.type,
        [auth.type]: { username: `{{${auth.username}}}`, password: `{{${auth.password}}}` },
      }
    case 'apiKey': {
      // Bruno's apikey goes in a header or the query; a cookie key is a Cookie header.
      const cookie = auth.in === 'cookie'
      return {
        mode: 'apikey',
        apikey: {
          key: cookie ? 'Cookie' : auth.name,
          value: cookie ? `${auth.name}={{${auth.value}}}` : `{{${auth.value}}}`,
          placement: auth.in === 'query' ? 'queryparams' : 'header',
        },
      }
    }
    case 'oauth2':
      return {
        mode: 'oauth2',
        oauth2: {
          grantType: auth.grant,
          authorizationUrl: auth.authorizationUrl,
          accessTokenUrl: auth.tokenUrl,
          refreshTokenUrl: auth.refreshUrl,
          callbackUrl: `{{${auth.redirectUrl}}}`,
          clientId: `{{${auth.clientId}}}`,
          clientSecret: `{{${auth.clientSecret}}}`,
          scope: auth.scopes.join(' '),
          state: '',
          credentialsPlacement: 'header',
          tokenPlacement: 'header',
          tokenHeaderPrefix: 'Bearer',
          autoFetchToken: true,
          autoRefreshToken: true,
        },
      }
  }
}

const defaultTypes: Partial<Record<ExportBody['kind'], string>> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
}

/** A model body as Bruno's body object (`mode` and the mode's field). */
export function brunoBody(
  value: ExportBody | undefined,
  uid: Uid,
  key: string,
): Record<string, unknown> {
  const empty = { json: null, text: null, xml: null, formUrlEncoded: [], multipartForm: [] }
  if (value === undefined) return { mode: 'none', ...empty }
  switch (value.kind) {
    case 'json':
      return { ...empty, mode: 'json', json: value.text }
    case 'text':
      return value.language === 'xml'
        ? { ...empty, mode: 'xml', xml: value.text }
        : { ...empty, mode: 'text', text: value.text }
    case 'form':
      return {
        ...empty,
        mode: 'formUrlEncoded',
        formUrlEncoded: value.fields.map((f, i) => ({
          uid: uid(`${key}:form:${i}`),
          name: f.name,
          value: f.value,
          description: f.description,
          enabled: f.enabled,
        })),
      }
    case 'multipart':
      return {
        ...empty,
        mode: 'multipartForm',
        multipartForm: value.fields.map((f, i) => ({
          uid: uid(`${key}:form:${i}`),
          type: f.file ? 'file' : 'text',
          name: f.name,
          value: f.file ? [] : f.value,
          description: f.description,
          enabled: f.enabled,
        })),
      }
    case 'file':
      return { ...empty, mode: 'file', file: [] }
  }
}

/** The Content-Type header a body needs when Bruno's mode does not imply it. */
export function contentType(value: ExportBody | undefined): string | undefined {
  if (value === undefined || value.kind === 'multipart') return undefined
  const base = value.mediaType.split(';')[0]!.trim().toLowerCase()
  const usual =
    value.kind === 'text'
      ? value.language === 'xml'
        ? 'application/xml'
        : 'text/plain'
      : defaultTypes[value.kind]
  return base === usual && value.mediaType === base ? undefined : value.mediaType
}

// Leading and trailing dots and spaces, which file systems drop or read as hidden files.
function trimDots(name: string): string {
  const dropped = (ch: string | undefined) => ch === '.' || ch === ' '
  let start = 0
  let end = name.length
  while (start < end && dropped(name[start])) start++
  while (end > start && dropped(name[end - 1])) end--
  return name.slice(start, end)
}

// Bruno writes each request to a file named after it: no path characters, one name per folder.
export function fileName(name: string, taken: Set<string>): string {
  const base = trimDots(name.replace(/[\\/:*?"<>|]/g, '-')) || 'request'
  let out = base
  for (let n = 2; taken.has(out.toLowerCase()); n++) out = `${base} (${n})`
  taken.add(out.toLowerCase())
  return out
}
