// Writes docs/reference/error-codes.md from the registry (src/shared/error-codes.ts) and what it
// says of each code (src/shared/error-code-guide.ts). test/readme/reference-error-codes.test.ts
// fails when the committed page differs from what this produces.
import { writeFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { errorCodeGuide } from '../../src/shared/error-code-guide.js'
import { type ErrorCode, errorCodes } from '../../src/shared/error-codes.js'
import { anchorOf, code, generatedNote, isMain, table } from './markdown.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/** Where the page is written. */
export const outputPath = resolve(root, 'docs/reference/error-codes.md')

const intro = `# Error codes

${generatedNote('src/shared/error-codes.ts and src/shared/error-code-guide.ts')}

Every code shapeguard itself sends in an error answer: its HTTP status, the message sent when the
raiser gives none, when it is raised, and what a client and the API's author do about it. The code
is \`error.code\` in the error envelope, and the \`code\` member of problem details
([Responses and errors](../responses-and-errors.md#problem-details-rfc-9457)):

<!-- readme: skip the shape of an answer, not code -->
\`\`\`json
{
  "success": false,
  "message": "Resource not found",
  "error": { "code": "NOT_FOUND", "message": "Resource not found", "details": null }
}
\`\`\`

\`ErrorCode\` holds every code below, as a type and as a frozen object, to match codes without
typos:

\`\`\`ts
import { ErrorCode } from 'shapeguard'

const answer = await fetch('http://localhost:3000/users/1')
const body = (await answer.json()) as { error?: { code: string } }
if (body.error?.code === ErrorCode.NOT_FOUND) console.log('no such user')
\`\`\`

Your own codes (\`AppError.custom\`, \`AppError.define\`, \`res.fail\`, subclasses) use the same
envelope and are yours to document. A mistaken option or route throws a misuse error instead,
which never reaches a client: see [Misuse errors](../misuse-errors.md).
`

function section(name: ErrorCode): string {
  const entry = errorCodes[name]
  const guide = errorCodeGuide[name]
  const exposure = entry.exposed
    ? ''
    : ' In production its message and details are replaced by the fallback message (`errorHandler({ fallbackMessage })`); in development they are sent as raised.'
  const reserved = 'reserved' in entry ? ` Reserved for ${entry.reserved}: not sent yet.` : ''
  return [
    `## ${name}`,
    '',
    `**${entry.status}** · default message: ${code(entry.message)} · raised by ${guide.raisedBy}`,
    '',
    `**When:** ${guide.when}${exposure}${reserved}`,
    '',
    `**Client:** ${guide.client}`,
    '',
    `**Server:** ${guide.server}`,
    '',
  ].join('\n')
}

/** The page, from the registry as it is now. */
export function errorCodesReference(): string {
  const names = Object.keys(errorCodes) as ErrorCode[]
  const rows = names.map((name) => [
    `[${code(name)}](#${anchorOf(name)})`,
    String(errorCodes[name].status),
    code(errorCodes[name].message),
  ])
  return [intro, ...table(['Code', 'Status', 'Default message'], rows), '', ...names.map(section)]
    .join('\n')
    .replace(/\n+$/, '\n')
}

if (isMain(import.meta.url)) {
  writeFileSync(outputPath, errorCodesReference())
  console.log(`${relative(root, outputPath)}: ${Object.keys(errorCodes).length} codes`)
}
