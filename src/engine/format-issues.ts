import type { FieldIssue, Issue, RequestPart } from './result.js'

/**
 * Turns issues into the client-facing list: `field` is the dotted path inside
 * the part, or the part's name for a root-level issue; only the first issue unless `allErrors`.
 * @param allErrors every issue when true; the first only when false.
 * @example formatIssues([{ path: ['address', 'zip'], message: 'Required', code: 'invalid_type' }], 'body', false)
 * // → [{ field: 'address.zip', message: 'Required', code: 'invalid_type' }]
 */
export function formatIssues(
  issues: readonly Issue[],
  part: RequestPart,
  allErrors: boolean,
): FieldIssue[] {
  const list = allErrors ? issues : issues.slice(0, 1)
  return list.map((issue) => ({
    field: issue.path.length === 0 ? part : issue.path.join('.'),
    message: issue.message,
    code: issue.code,
  }))
}
