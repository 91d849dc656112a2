import { type Command, loadOptions, stringOf, titleOptions } from '../command.js'
import { appDocument } from '../document.js'
import { emit } from '../io.js'
import { EXIT, UsageError } from '../usage-error.js'
import { toYaml } from '../yaml.js'

/** `shapeguard openapi <module>`: the app's OpenAPI 3.1 document, as JSON or YAML. */
export const openapi: Command = {
  summary: "write the app's OpenAPI 3.1 document",
  description:
    'Writes the OpenAPI 3.1 document generateOpenAPI() makes for the Express app <module> ' +
    "exports, without starting its server. The module's `openapi` export, if any, is " +
    "generateOpenAPI()'s configuration (servers, tags; the security schemes come from the app's shapeguard({ auth })).",
  options: {
    out: { type: 'string', short: 'o', value: 'file', help: 'write to this file, not stdout' },
    format: { type: 'string', value: 'json|yaml', help: 'the format (default: json)' },
    ...titleOptions,
    ...loadOptions,
  },
  async run(ctx) {
    const { values, io } = ctx
    const format = stringOf(values, 'format') ?? 'json'
    if (format !== 'json' && format !== 'yaml')
      throw new UsageError(`--format must be json or yaml, not ${format}`)
    const { doc, warnings } = await appDocument(ctx)
    for (const warning of warnings) io.err(`warning: ${warning}\n`)
    emit(
      io,
      stringOf(values, 'out'),
      format === 'yaml' ? toYaml(doc) : `${JSON.stringify(doc, null, 2)}\n`,
    )
    return EXIT.ok
  },
}
