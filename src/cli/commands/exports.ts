import { type Command, loadOptions, stringOf, titleOptions } from '../command.js'
import { appDocument } from '../document.js'
import { openapiEntry } from '../entries.js'
import { emit } from '../io.js'
import { EXIT } from '../usage-error.js'

type Tool = 'toPostman' | 'toInsomnia' | 'toBruno'

/** A command that writes one client export of the app's document. */
function exportCommand(tool: Tool, what: string, imports: string): Command {
  return {
    summary: `write ${what}`,
    description:
      `Writes ${what} of the app <module> exports, made from its OpenAPI document (${tool}()); ` +
      `${imports}. IDs are stable: they derive from --seed, by default the API's title.`,
    options: {
      out: { type: 'string', short: 'o', value: 'file', help: 'write to this file, not stdout' },
      name: { type: 'string', value: 'text', help: "the collection's name (default: the title)" },
      'base-url': {
        type: 'string',
        value: 'url',
        help: "the requests' base URL (default: the document's first server)",
      },
      seed: { type: 'string', value: 'text', help: 'the seed of the IDs (default: the title)' },
      ...titleOptions,
      ...loadOptions,
    },
    async run(ctx) {
      const { values, io } = ctx
      const { loaded, doc, warnings } = await appDocument(ctx)
      for (const warning of warnings) io.err(`warning: ${warning}\n`)
      const entry = await openapiEntry(loaded.cjs)
      const options: Record<string, string> = { seed: String(doc.info.title) }
      for (const [flag, key] of [
        ['seed', 'seed'],
        ['name', 'name'],
        ['base-url', 'baseUrl'],
      ] as const) {
        const value = stringOf(values, flag)
        if (value !== undefined) options[key] = value
      }
      const collection = entry[tool](doc, options)
      emit(io, stringOf(values, 'out'), `${JSON.stringify(collection, null, 2)}\n`)
      return EXIT.ok
    },
  }
}

export const postman = exportCommand(
  'toPostman',
  'a Postman collection (v2.1)',
  'import it in Postman with Import › File',
)
export const insomnia = exportCommand(
  'toInsomnia',
  'an Insomnia export (v4)',
  'import it in Insomnia with Import › From File',
)
export const bruno = exportCommand(
  'toBruno',
  'a Bruno collection (JSON)',
  'import it in Bruno with Import Collection › Bruno Collection',
)
