import { UsageError } from '../usage-error.js'
import type { Finding } from './findings.js'

const validatorPackage = '@seriousme/openapi-schema-validator'
// A document that breaks many rules gives many errors at once; the first ones name the cause.
const shown = 20

type ValidatorModule = typeof import('@seriousme/openapi-schema-validator')

/** The optional peer that holds the official OpenAPI schemas, loaded when `check` needs it. */
async function loadValidator(): Promise<ValidatorModule> {
  try {
    return await import('@seriousme/openapi-schema-validator')
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (code !== 'ERR_MODULE_NOT_FOUND' || !String(error).includes(validatorPackage)) throw error
    throw new UsageError(
      `shapeguard check validates the document with the optional package ${validatorPackage}, ` +
        `which is not installed. Install it with: npm install -D ${validatorPackage}`,
    )
  }
}

/**
 * Validates a document (an object, or JSON or YAML text) against the official OpenAPI schema of
 * its version. Returns the document as read and one error per schema violation (its location
 * and rule, never a value of the document).
 */
export async function validateDocument(
  input: unknown,
): Promise<{ doc: unknown; findings: Finding[] }> {
  const { Validator } = await loadValidator()
  const validator = new Validator()
  const result = await validator.validate(input as Record<string, unknown> | string)
  if (result.valid) return { doc: validator.specification, findings: [] }
  const errors = result.errors
  const error = (message: string): Finding => ({ level: 'error', where: 'document', message })
  if (!Array.isArray(errors))
    return { doc: validator.specification, findings: [error(String(errors))] }
  const findings = errors
    .slice(0, shown)
    .map((e) => error(`${e.instancePath || '/'}: ${e.message ?? 'is not valid'} (OpenAPI schema)`))
  if (errors.length > shown)
    findings.push(error(`… and ${errors.length - shown} more errors of the OpenAPI schema`))
  return { doc: validator.specification, findings }
}
