// Writes docs/reference/response-helpers.md: every `res.*` helper `shapeguard()` puts on a
// response (the `ResponseHelpers` interface), with its signature and options read from the types,
// and what it answers, found by running its example on `mockResponse()`.
// test/readme/reference-response-helpers.test.ts fails when the committed page differs.
import { writeFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { mockRequest, mockResponse } from '../../src/testing/index.js'
import { code, formatted, generatedNote, isMain, table } from './markdown.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/** Where the page is written. */
export const outputPath = resolve(root, 'docs/reference/response-helpers.md')

const typesFile = resolve(root, 'src/runtime/response/types.ts')
const streamTypesFile = resolve(root, 'src/runtime/response/stream-types.ts')

/** What the page says of one helper beside its signature. */
export interface HelperEntry {
  /** The status it answers. */
  readonly status: string
  /** What it sends. */
  readonly sends: string
  /**
   * An example the page shows and the generator runs on `mockResponse()` for the answer it
   * prints: the request's method and the helper's arguments as source text.
   */
  readonly run?: { readonly method: string; readonly path: string; readonly args: string }
  /** An example shown (and compiled by the types test) but not run: a streaming route. */
  readonly block?: string
}

/** Every helper, in the order of `ResponseHelpers`. */
export const helpers: Readonly<Record<string, HelperEntry>> = {
  ok: {
    status:
      "`200`; `201` on POST (the method's status in `response.statusCodes`); `options.status` wins",
    sends:
      'The success envelope with `data` (`null` when not given) and `message` (`""` when not given).',
    run: { method: 'GET', path: '/users/:id', args: "{ data: { id: 1, name: 'Ada' } }" },
  },
  created: {
    status: '`201`',
    sends: 'The success envelope, as `res.ok()`.',
    run: { method: 'POST', path: '/users', args: "{ data: { id: 2 }, message: 'User created' }" },
  },
  accepted: {
    status: '`202`',
    sends: 'The success envelope, as `res.ok()`: for work that goes on after the answer.',
    run: { method: 'POST', path: '/exports', args: "{ data: { jobId: 'j1' } }" },
  },
  noContent: {
    status: '`204`',
    sends: 'No body.',
    run: { method: 'DELETE', path: '/users/:id', args: '' },
  },
  paginated: {
    status: '`200`',
    sends:
      'The success envelope whose `data` is `{ items, total, page, limit, pages }`, `pages` computed from `total` and `limit` (`0` when `limit` is `0`).',
    run: {
      method: 'GET',
      path: '/users',
      args: '{ data: [{ id: 1 }, { id: 2 }], total: 12, page: 1, limit: 2 }',
    },
  },
  cursorPaginated: {
    status: '`200`',
    sends:
      'The success envelope whose `data` is `{ items, nextCursor, prevCursor, hasMore }`, and `total` when given; `prevCursor` is `null` when not given.',
    run: {
      method: 'GET',
      path: '/events',
      args: "{ data: [{ id: 'e9' }], nextCursor: 'e9', hasMore: true }",
    },
  },
  fail: {
    status:
      '`400`, or `options.status` (a number from 400 to 599; any other throws `SG_ERR_INVALID_OPTION`)',
    sends:
      'The error envelope (or problem details with `errors.format: "problem+json"`) without throwing: `details` is `null` when not given. The request log line carries the code and message, as for a thrown error.',
    run: {
      method: 'POST',
      path: '/orders',
      args: "{ code: 'OUT_OF_STOCK', message: 'Sold out', status: 409, details: { sku: 'A1' } }",
    },
  },
  sse: {
    status: '`200`, with the head flushed at once (`Cache-Control: no-cache, no-transform`)',
    sends:
      "`text/event-stream`: the events sent with `send(event, data)`, each validated and stripped by its schema in the route's `events`, and `: ping` comments every `heartbeat` milliseconds. Needs a route with `events`.",
    block: `import { handle } from 'shapeguard'
import { z } from 'zod'

app.get(
  '/ticks',
  handle({ events: { tick: z.object({ n: z.number() }) } }, async (req, res) => {
    const stream = res.sse({ heartbeat: 10_000 })
    await stream.send('tick', { n: 1 }, { id: '1' })
    await stream.close()
  }),
)`,
  },
  ndjson: {
    status: '`200`, with the head flushed at once (`Cache-Control: no-cache, no-transform`)',
    sends:
      "`application/x-ndjson`: one JSON value a line, each validated and stripped by the route's `stream` schema. `res.ndjson()` gives a stream to `send()` to and `close()`; `await res.ndjson(items)` sends an iterable or async iterable and ends. Needs a route with `stream`.",
    block: `import { handle } from 'shapeguard'
import { z } from 'zod'

app.get(
  '/rows',
  handle({ stream: z.object({ id: z.number() }) }, async (req, res) => {
    await res.ndjson([{ id: 1 }, { id: 2 }])
  }),
)`,
  },
}

/** What the options of the envelope helpers mean, where their types carry no JSDoc. */
export const fieldNotes: Readonly<Record<string, string>> = {
  'FailOptions.message': "The error's message: the envelope's `message` and `error.message`.",
  'FailOptions.status': 'The status, a number from 400 to 599. Default: `400`.',
  data: "The envelope's `data` (checked and stripped by the route's `response` schema, when it has one).",
  message: 'The envelope\'s `message`. Default: `""`.',
  status: "The status to answer with instead of the helper's own.",
  total: 'The number of items in the whole collection.',
  page: 'The page number of these items, as the client asked for it.',
  limit: 'The page size; `pages` is `total / limit`, rounded up.',
  nextCursor: 'The cursor of the next page; `null` on the last one.',
  prevCursor: 'The cursor of the previous page. Default: `null`.',
  hasMore: 'Whether there is a next page.',
  code: 'The error code (`error.code`), your own or one of the [error codes](error-codes.md).',
  details: 'What the client needs to act on the error (`error.details`). Default: `null`.',
}

interface Member {
  readonly name: string
  readonly signature: string
  readonly doc: string
  readonly options: readonly OptionField[]
  readonly optionsType: string | undefined
}

export interface OptionField {
  readonly name: string
  readonly type: string
  readonly required: boolean
  readonly description: string
}

const flat = (text: string) => text.replace(/\s+/g, ' ').trim()

/** The members of `ResponseHelpers`, their signatures and options, from the types. */
export function readHelpers(): Member[] {
  const program = ts.createProgram({
    rootNames: [typesFile, streamTypesFile],
    options: { strict: true, noEmit: true, skipLibCheck: true, types: ['node'] },
  })
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(typesFile)
  const helpersDecl = source?.statements.find(
    (s): s is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(s) && s.name.text === 'ResponseHelpers',
  )
  if (helpersDecl === undefined)
    throw new Error('no ResponseHelpers in src/runtime/response/types.ts')
  return helpersDecl.members.map((member) => {
    const name = member.name?.getText() ?? ''
    const symbol = checker.getSymbolAtLocation(member.name as ts.Node)
    const doc = symbol ? flat(ts.displayPartsToString(symbol.getDocumentationComment(checker))) : ''
    let signature: string
    let optionsType: ts.TypeNode | undefined
    if (ts.isMethodSignature(member)) {
      signature = `res.${flat(member.getText().replace(/\/\*\*[\s\S]*?\*\//, ''))}`
      optionsType = member.parameters[0]?.type
    } else if (ts.isPropertySignature(member) && member.type) {
      // `ndjson: NdjsonHelper`: the interface's call signatures.
      const type = checker.getTypeAtLocation(member.type)
      signature = type
        .getCallSignatures()
        .map((s) => `res.${name}${checker.signatureToString(s)}`)
        .join('; ')
      optionsType = undefined
    } else throw new Error(`ResponseHelpers.${name}: neither a method nor a property`)
    const options: OptionField[] = []
    let typeName: string | undefined
    if (optionsType !== undefined) {
      typeName = optionsType.getText().replace(/<.*$/, '')
      const type = checker.getTypeAtLocation(optionsType)
      for (const prop of checker.getPropertiesOfType(type)) {
        const decl = prop.declarations?.[0]
        const written =
          decl && (ts.isPropertySignature(decl) || ts.isPropertyDeclaration(decl)) && decl.type
            ? flat(decl.type.getText())
            : checker.typeToString(checker.getTypeOfSymbol(prop))
        const jsdoc = flat(ts.displayPartsToString(prop.getDocumentationComment(checker)))
        const tags = prop.getJsDocTags(checker).find((t) => t.name === 'default')
        const def = tags ? ` Default: ${code(flat(ts.displayPartsToString(tags.text)))}.` : ''
        options.push({
          name: prop.name,
          type: written.replace(/\bT\b/g, 'T').replace(/\bDetails\b/g, 'Details'),
          required: (prop.flags & ts.SymbolFlags.Optional) === 0,
          description:
            jsdoc === ''
              ? (fieldNotes[`${typeName}.${prop.name}`] ?? fieldNotes[prop.name] ?? '')
              : `${jsdoc}${def}`,
        })
      }
    }
    return { name, signature, doc, options, optionsType: typeName }
  })
}

/** The answer of a helper's example: `mockResponse()`'s status and body, the body as JSON. */
export function answerOf(entry: NonNullable<HelperEntry['run']>, name: string) {
  const res = mockResponse({ req: mockRequest({ method: entry.method }) })
  const args = new Function(`return [${entry.args}]`)() as unknown[]
  ;(res as unknown as Record<string, (...a: unknown[]) => unknown>)[name]?.(...args)
  const { statusCode, body } = res._result()
  return { status: statusCode, body: body === undefined ? undefined : JSON.stringify(body) }
}

function section(member: Member): string[] {
  const entry = helpers[member.name]
  if (entry === undefined) throw new Error(`res.${member.name} has no entry in helpers`)
  const lines = [`## res.${member.name}()`, '']
  lines.push(code(member.signature), '')
  if (member.doc !== '') lines.push(member.doc, '')
  lines.push(`- **Status:** ${entry.status}`, `- **Sends:** ${entry.sends}`, '')
  if (member.options.length > 0) {
    lines.push(`Its options (\`${member.optionsType}\`):`, '')
    lines.push(
      ...table(
        ['Option', 'Type', 'Description'],
        member.options.map((o) => [
          code(o.name),
          code(o.type),
          `${o.required ? '**Required.** ' : ''}${o.description}`,
        ]),
      ),
      '',
    )
  }
  if (entry.run !== undefined) {
    const { method, path, args } = entry.run
    const answer = answerOf(entry.run, member.name)
    lines.push(
      '<!-- readme: given app -->',
      '```ts',
      `app.${method.toLowerCase()}('${path}', (req, res) => res.${member.name}(${args}))`,
      '```',
      '',
      `Answers ${code(String(answer.status))}${answer.body === undefined ? ' with no body' : ` with ${code(answer.body)}`}.`,
      '',
    )
  }
  if (entry.block !== undefined)
    lines.push('<!-- readme: given app -->', '```ts', entry.block, '```', '')
  return lines
}

const intro = `# Response helpers

${generatedNote('the ResponseHelpers type (src/runtime/response/types.ts) and scripts/reference/response-helpers.ts')}

\`shapeguard()\` puts these helpers on every response of the app (on \`app.response\`, once): no
import is needed in a handler. Each success helper returns \`undefined\` once the answer is sent,
or, with an asynchronous response schema, a promise that settles once it is (\`await\` it before
throwing or calling \`next()\`). The envelope's field names follow \`response.shape\`; the answers
below are the default shape. The guide is
[Responses and errors](../responses-and-errors.md#responses).
`

/** The page, from the types and the helpers as they are now. */
export function responseHelpersReference(): string {
  const members = readHelpers()
  const rows = members.map((m) => [
    `[${code(`res.${m.name}()`)}](#res${m.name.toLowerCase()})`,
    helpers[m.name]?.status.replace(/(?:;| \().*$/, '') ?? '',
  ])
  const page = [intro, ...table(['Helper', 'Status'], rows), '', ...members.flatMap(section)]
  return formatted(page.join('\n'), outputPath)
}

if (isMain(import.meta.url)) {
  writeFileSync(outputPath, responseHelpersReference())
  console.log(`${relative(root, outputPath)}: ${readHelpers().length} helpers`)
}
