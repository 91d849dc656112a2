import type { FieldIssue } from '../../engine/result.js'

/**
 * One validation failure as clients receive it in `error.details`: the
 * engine's `FieldIssue` with `code` present only when `validation.exposeSchemaCodes` is on.
 * `field` is the dotted path inside the request part, or the part name for a root-level issue.
 */
export interface ValidationIssue extends Omit<FieldIssue, 'code'> {
  /** The schema library's own issue code, only when `validation.exposeSchemaCodes` is on. */
  readonly code?: string
}
