import { readFileSync } from 'node:fs'
import { extname, resolve } from 'node:path'
import { documentFindings, type Finding, operationCount } from '../check/findings.js'
import { validateDocument } from '../check/validate-document.js'
import { type Command, loadOptions } from '../command.js'
import { appDocument } from '../document.js'
import { count } from '../text.js'
import { EXIT, UsageError } from '../usage-error.js'

const documentFile = new Set(['.json', '.yaml', '.yml'])

/** `shapeguard check <module>`: the document against the OpenAPI schema, and what routes lack. */
export const check: Command = {
  summary: 'validate the document; list routes without schemas or error statuses',
  description:
    'Validates the OpenAPI document of the app <module> exports (or a document file, .json, ' +
    '.yaml or .yml) against the official OpenAPI schema, and lists the operations without a ' +
    'request body schema (POST, PUT, PATCH), without a response schema, or without an error ' +
    'status, and what generateOpenAPI() could not document. A schema violation is an error; the ' +
    `rest are warnings. Exits ${EXIT.problem} on an error (or a warning, with --strict). Needs ` +
    '@seriousme/openapi-schema-validator (npm install -D @seriousme/openapi-schema-validator).',
  options: {
    strict: { type: 'boolean', help: 'warnings fail the check too' },
    ...loadOptions,
  },
  async run(ctx) {
    const { module, values, io } = ctx
    const findings: Finding[] = []
    let input: unknown
    if (documentFile.has(extname(module).toLowerCase())) {
      try {
        input = readFileSync(resolve(io.cwd, module), 'utf8')
      } catch {
        throw new UsageError(`${module}: no such file (paths are relative to ${io.cwd})`)
      }
    } else {
      const { doc, warnings } = await appDocument(ctx)
      input = doc
      for (const message of warnings)
        findings.push({ level: 'warning', where: 'document', message })
    }
    const { doc, findings: invalid } = await validateDocument(input)
    findings.unshift(...invalid)
    findings.push(...documentFindings(doc))
    const errors = findings.filter((f) => f.level === 'error').length
    const warnings = findings.length - errors
    io.out(`check: ${module}: ${count(operationCount(doc), 'operation')}\n`)
    for (const f of findings) io.out(`${f.level.padEnd(7)} ${f.where}: ${f.message}\n`)
    io.out(`check: ${count(errors, 'error')}, ${count(warnings, 'warning')}\n`)
    return errors > 0 || (values.strict === true && warnings > 0) ? EXIT.problem : EXIT.ok
  },
}
