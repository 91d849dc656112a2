import type { HostileKind } from '../arbitrary/hostile.js'
import type { Part } from './wire.js'

/** The kind of request: every part valid, one rule of one part broken, or a guard case. */
export type RequestKind = 'valid' | 'invalid' | 'hostile'

/** One generated request, ready to send. */
export interface FuzzRequest {
  readonly kind: RequestKind
  readonly method: string
  /** The path with its parameters filled in, and the query string. */
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  /** JSON text, a `multipart/form-data` body (a route with files), or none. */
  readonly body: string | Buffer | undefined
  /** An invalid request: the part and the field (as `details.field` names it) that is broken. */
  readonly broken?: {
    readonly part: Part | 'files'
    readonly field: string
    readonly deep: boolean
  }
  /** What a hostile request tries: a guard case, an upload (`oversized-file`…) or a cookie header (`cookie-8kb`…). */
  readonly hostile?: HostileKind | (string & {})
  /** A request the server must answer with one of these statuses (400 past a guard, 413, 415). */
  readonly expect?: readonly number[]
  /** Values of the request no answer may hold: a raw hostile filename, a hostile cookie. */
  readonly echo?: readonly string[]
}
