// Writes docs/misuse-errors.md, the reference of misuse error codes, from the registry in
// src/shared/misuse-codes.ts (`npm run docs:misuse`). test/readme/misuse-errors.test.ts fails when
// the committed page differs from what this produces.
import { writeFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { type MisuseCode, misuseAnchor, misuseCodes } from '../src/shared/misuse-codes.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** Where the reference is written. */
export const outputPath = resolve(root, 'docs/misuse-errors.md')

const intro = `# Misuse errors

<!-- Written by \`npm run docs:misuse\` from src/shared/misuse-codes.ts: edit the registry, not this page. -->

A misuse error is a programmer's mistake shapeguard finds when an option, a route or an argument is
given: at mount time, when a route is defined, or (for a function given as an option) when it is
first called. It stops the program instead of reaching a client, so it has no HTTP status; the
errors a client is answered with are the [error codes](responses-and-errors.md#error-codes).

Each misuse error keeps its class (\`TypeError\` for a value shapeguard cannot take, \`Error\` for a
missing package) and carries a code, so a test or a start-up script can match it without parsing
the message:

\`\`\`ts
import express from 'express'
import { shapeguard } from 'shapeguard'

const app = express()
try {
  app.use(shapeguard({ requestId: { header: 'x request id' } }))
} catch (err) {
  // shapeguard: requestId.header: must be a header name
  if ((err as { code?: string }).code === 'SG_ERR_INVALID_OPTION') process.exitCode = 1
  throw err
}
\`\`\`

Its message reads \`shapeguard: <where>: <what>[, <fix>]\`: the call or option at fault, what is
wrong with it, and the fix when the what does not say it already.
`

const capitalised = (text: string) => `${text[0]?.toUpperCase()}${text.slice(1)}`

function section(code: MisuseCode): string {
  const entry = misuseCodes[code]
  return [
    `## ${code}`,
    '',
    `**${capitalised(entry.title)}** (\`${entry.type}\`)`,
    '',
    entry.cause,
    '',
    `**Fix:** ${entry.fix}`,
    '',
    `For example: \`${entry.example}\``,
    '',
  ].join('\n')
}

/** A Markdown table with its columns padded, as the formatter writes it (biome checks docs/). */
function table(head: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)))
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)]
}

/** The page, from the registry as it is now. */
export function misuseReference(): string {
  const codes = Object.keys(misuseCodes) as MisuseCode[]
  const rows = codes.map((code) => [
    `[\`${code}\`](#${misuseAnchor(code)})`,
    misuseCodes[code].title,
  ])
  return [intro, ...table(['Code', 'The mistake'], rows), '', ...codes.map(section)].join('\n')
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(outputPath, misuseReference())
  console.log(`${relative(root, outputPath)}: ${Object.keys(misuseCodes).length} codes`)
}
