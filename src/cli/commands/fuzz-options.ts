import type { FuzzPhase, FuzzRoutesOptions } from 'shapeguard/testing'
import { schemeNamePattern } from '../../shared/resolve-schemes.js'
import { stringOf, type Values } from '../command.js'
import { UsageError } from '../usage-error.js'

/** A repeatable flag's comma-separated values, trimmed, none empty. */
export const listOf = (values: Values, name: string): string[] =>
  ((values[name] as string[] | undefined) ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '')

// A route key as fuzzRoutes writes it: the method in capitals (`get /users` is `GET /users`).
const routeKey = (key: string) =>
  key.trim().replace(/^(\S+)\s+/, (_m, method: string) => `${method.toUpperCase()} `)

function integer(values: Values, name: string, min: number): number | undefined {
  const text = stringOf(values, name)
  if (text === undefined) return undefined
  const n = Number(text)
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(n) || n < min)
    throw new UsageError(`--${name} must be an integer${min > 0 ? ` of at least ${min}` : ''}`)
  return n
}

function headersOf(values: Values): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const line of (values.header as string[] | undefined) ?? []) {
    const at = line.indexOf(':')
    if (at <= 0) throw new UsageError("--header takes 'name: value'")
    headers[line.slice(0, at).trim()] = line.slice(at + 1).trim()
  }
  return headers
}

/** `--status 404` (any route) or `--status 'GET /users/:id=404,409'`. */
function statusesOf(values: Values): Record<string, number[]> {
  const statuses: Record<string, number[]> = {}
  for (const entry of (values.status as string[] | undefined) ?? []) {
    const at = entry.lastIndexOf('=')
    const key = at === -1 ? '*' : routeKey(entry.slice(0, at))
    const list = (at === -1 ? entry : entry.slice(at + 1)).split(',').map((s) => s.trim())
    if (key === '' || !list.every((s) => /^[1-5]\d\d$/.test(s)))
      throw new UsageError(
        "--status takes statuses ('404,409'), or a route and statuses ('GET /users/:id=404')",
      )
    statuses[key] = [...(statuses[key] ?? []), ...list.map(Number)]
  }
  return statuses
}

// `--auth name=value`: a name as a scheme name is spelt, then `=`; an Authorization header has a
// space after its scheme (`Bearer xyz`), so it never reads as one.
const schemeValue = new RegExp(`^(${schemeNamePattern})=(.*)$`, 's')

/** fuzzRoutes' `auth` and `Authorization` header from the --auth flags. */
interface AuthFlags {
  readonly auth: Record<string, string> | undefined
  readonly authorization: string | undefined
}

/**
 * `--auth scheme=value` (repeatable) gives the credential of a scheme the app declares (`schemes`):
 * `bearer=TOKEN`, `apiKey=KEY`, `basic=user:password`; any other value is the Authorization header
 * of every request (`--auth 'Bearer xyz'`), at most one. `name=value` naming no scheme is a usage
 * error: a misspelt scheme must not become a header the app refuses.
 */
function authOf(values: Values, schemes: readonly string[]): AuthFlags {
  const auth: Record<string, string> = {}
  let authorization: string | undefined
  for (const entry of (values.auth as string[] | undefined) ?? []) {
    const match = schemeValue.exec(entry)
    if (match === null) {
      if (authorization !== undefined)
        throw new UsageError("--auth: give the Authorization header once ('Bearer <token>')")
      authorization = entry
      continue
    }
    const [, name, value] = match as unknown as [string, string, string]
    if (!schemes.includes(name))
      throw new UsageError(
        `--auth: ${name} is not a security scheme of the app (${schemes.join(', ') || 'it declares none'}); give the Authorization header as 'Bearer <token>'`,
      )
    if (value === '') throw new UsageError(`--auth: ${name}= needs a value`)
    auth[name] = value
  }
  return { auth: Object.keys(auth).length > 0 ? auth : undefined, authorization }
}

// fuzzRoutes' phases (the command loads shapeguard/testing only to run).
const phaseNames: readonly FuzzPhase[] = ['examples', 'boundaries', 'random', 'stateful']

/** `--phases boundaries,random`: known phase names, in any order. */
function phasesOf(names: readonly string[]): FuzzPhase[] {
  for (const name of names)
    if (!(phaseNames as readonly string[]).includes(name))
      throw new UsageError(`--phases takes ${phaseNames.join(', ')} (comma-separated), not ${name}`)
  return names as FuzzPhase[]
}

/** Where the curl lines point: `--base-url` without a trailing slash, as fuzzRoutes writes it. */
export const baseUrlOf = (values: Values) =>
  (stringOf(values, 'base-url') ?? 'http://localhost:3000').replace(/\/$/, '')

/**
 * fuzzRoutes' options from the command's flags; a flag's mistake is a usage error.
 * @param schemes the names of the app's security schemes, which `--auth name=value` takes
 */
export function fuzzOptions(values: Values, schemes: readonly string[]): FuzzRoutesOptions {
  const { auth, authorization } = authOf(values, schemes)
  const headers = headersOf(values)
  if (authorization !== undefined) headers.authorization = authorization
  const options: Record<string, unknown> = {
    runs: integer(values, 'runs', 1),
    seed: integer(values, 'seed', Number.MIN_SAFE_INTEGER),
    auth,
    headers,
    statuses: statusesOf(values),
    streamEvents: integer(values, 'stream-events', 1),
    streamMs: integer(values, 'stream-ms', 1),
    maxResponseTime: integer(values, 'max-response-time', 1),
    sequences: integer(values, 'sequences', 1),
    baseUrl: baseUrlOf(values),
  }
  const routes = listOf(values, 'routes')
  if (routes.length > 0) options.routes = routes.map(routeKey)
  const phases = listOf(values, 'phases')
  if (phases.length > 0) options.phases = phasesOf(phases)
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined))
}
