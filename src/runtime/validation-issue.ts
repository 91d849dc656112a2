/**
 * One validation failure as clients receive it in `error.details` (API.md decision 2).
 * `field` is the dotted path inside the request part, or the part name for a root-level issue.
 */
export interface ValidationIssue {
  field: string
  message: string
  /** The schema library's own issue code, only when `validation.exposeSchemaCodes` is on. */
  code?: string
}
