/** One validation issue, library-neutral: where, what, and the library's own issue code. */
export interface Issue {
  readonly path: (string | number)[]
  readonly message: string
  readonly code: string
}

/** The outcome of validating one value: the parsed data, or the issues. */
export type Result<T = unknown> =
  | { readonly success: true; readonly data: T }
  | { readonly success: false; readonly issues: Issue[] }

/** A validation issue as the client sees it; `code` for `exposeSchemaCodes`. */
export interface FieldIssue {
  readonly field: string
  readonly message: string
  readonly code: string
}

/** The request part a schema validates; a root-level issue is reported under this name. */
export type RequestPart = 'body' | 'query' | 'params' | 'headers'
