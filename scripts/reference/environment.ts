// Writes docs/reference/environment.md: every environment variable the package reads, what it
// changes and its default. test/readme/reference-environment.test.ts fails when the committed page
// differs from what this produces, and when src/ reads a variable this list does not have.
import { writeFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { anchorOf, code, generatedNote, isMain, table } from './markdown.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/** Where the page is written. */
export const outputPath = resolve(root, 'docs/reference/environment.md')

/** One environment variable the package reads. */
export interface EnvironmentVariable {
  readonly name: string
  /** Who reads it, in a few words (the summary table). */
  readonly readBy: string
  /** When it is read: at import, at mount, at each call. */
  readonly read: string
  /** What it changes. */
  readonly effect: string
  readonly default: string
  /** A guide section that says more: its title, and its path relative to docs/. */
  readonly guide?: readonly [title: string, path: string]
}

/** Every variable src/ reads, in the page's order. */
export const variables: readonly EnvironmentVariable[] = [
  {
    name: 'NODE_ENV',
    readBy: '`shapeguard()`, `errorHandler()`, the logger',
    read: "When `shapeguard()`, `errorHandler()`, `notFoundHandler()` or a route (`handle()`, `validate()`) is made, never at import; by the default logger when it first writes outside any app; by an `AppError.define` factory's details check at each call.",
    effect:
      '`production` turns development mode off: `debug` defaults to `false` (programmer errors answer the fallback message without their stack or details, enum values leave validation messages), the logger defaults to JSON lines at level `warn` with only errors and slow requests logged, and the development warnings (routes mounted after `notFoundHandler()`, slow regular expressions in schemas, schemas the engine falls back on) are not written, and `AppError.define` factories stop checking their details against their schema. Any other value, or none, is development. An explicit `debug` option wins.',
    default: 'unset: development mode',
    guide: ['Running in production', 'production.md'],
  },
  {
    name: 'SHAPEGUARD_DICTIONARY_MODE',
    readBy: 'the request pipeline',
    read: 'Once, when the package is imported.',
    effect:
      "`1` puts each guarded request and its response in V8's dictionary mode, `0` never does. It overrides the choice made by V8 version: on for V8 12 and before (Node 22), where it makes property reads cheaper, off for V8 13 and later (Node 24, 26). Meant for measuring both paths on one Node line.",
    default: 'unset: on for Node 22, off for Node 24 and later',
    guide: ['Performance', 'performance.md'],
  },
  {
    name: 'NO_COLOR',
    readBy: "the logger's pretty format",
    read: 'When a pretty logger is made.',
    effect:
      'Any non-empty value turns the colours of the pretty log format off ([no-color.org](https://no-color.org/)). Colours are used only when the stream is a terminal anyway.',
    default: 'unset: colours on a terminal',
    guide: ['Logging', 'logging.md#logging'],
  },
  {
    name: 'PORT',
    readBy: '`serve()`',
    read: 'When `serve()` is called without `port`.',
    effect:
      'The port `serve()` listens on. It must be a whole number from 0 to 65535; anything else throws `SG_ERR_INVALID_OPTION`. `serve({ port })` wins.',
    default: '`3000`',
    guide: ['Graceful shutdown', 'production.md#graceful-shutdown'],
  },
  {
    name: 'SHAPEGUARD_COVERAGE',
    readBy: '`shapeguard coverage`',
    read: 'When a process of the test command starts (its `--import` hook).',
    effect:
      '`shapeguard coverage` sets it for the test command it runs: each Node process of that command records its guarded requests (`recordCoverage()`) into the folder it names. Set it yourself only to record without the command.',
    default: 'unset: nothing recorded',
    guide: ['Coverage of your own tests', 'testing.md#coverage-of-your-own-tests'],
  },
  {
    name: 'NODE_OPTIONS',
    readBy: '`shapeguard coverage`',
    read: 'When `shapeguard coverage` starts the test command.',
    effect:
      '`shapeguard coverage` keeps the options already there and adds `--import` of its recorder, so every Node process the test command starts records coverage.',
    default: 'unset: only the recorder',
    guide: ['`shapeguard coverage`', 'cli.md#shapeguard-coverage'],
  },
  {
    name: 'SHAPEGUARD_WATCHED',
    readBy: 'the `shapeguard` command',
    read: 'When the command starts.',
    effect:
      'Internal: the command runs in a child process that its parent watches (to stop a module that never finishes loading), and marks the child with this variable. The child removes it at once, so the app and its own child processes never see it. Do not set it.',
    default: 'unset',
  },
]

const intro = `# Environment variables

${generatedNote('scripts/reference/environment.ts')}

Every environment variable shapeguard reads, what it changes and its default. Options given in
code always win over the environment. Variables your app reads for itself (\`DATABASE_URL\`, a
webhook secret) are yours to document.
`

function section(v: EnvironmentVariable): string {
  const guide = v.guide === undefined ? '' : ` See [${v.guide[0]}](../${v.guide[1]}).`
  return [
    `## ${v.name}`,
    '',
    `- **Default:** ${v.default}`,
    `- **Read:** ${v.read}`,
    '',
    `${v.effect}${guide}`,
    '',
  ].join('\n')
}

/** The page, from the list as it is now. */
export function environmentReference(): string {
  const rows = variables.map((v) => [`[${code(v.name)}](#${anchorOf(v.name)})`, v.readBy])
  return [intro, ...table(['Variable', 'Read by'], rows), '', ...variables.map(section)]
    .join('\n')
    .replace(/\n+$/, '\n')
}

if (isMain(import.meta.url)) {
  writeFileSync(outputPath, environmentReference())
  console.log(`${relative(root, outputPath)}: ${variables.length} variables`)
}
