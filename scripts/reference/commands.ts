// Writes docs/reference/commands.md from the `shapeguard` command's own definitions (src/cli/run.ts
// and the commands in src/cli/commands/): each command's usage, description and options, and the
// exit statuses. test/readme/reference-commands.test.ts fails when the committed page differs.
import { writeFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Command, OptionSpec } from '../../src/cli/command.js'
import { commands, help, mainOptions, usageLine } from '../../src/cli/run.js'
import { EXIT, exitMeaning } from '../../src/cli/usage-error.js'
import { anchorOf, code, generatedNote, isMain, table } from './markdown.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/** Where the page is written. */
export const outputPath = resolve(root, 'docs/reference/commands.md')

/** The guide's section on each command, where it has one (docs/cli.md). */
export const guideSections: Readonly<Record<string, string>> = {
  openapi: 'shapeguard-openapi',
  postman: 'shapeguard-postman-insomnia-and-bruno',
  insomnia: 'shapeguard-postman-insomnia-and-bruno',
  bruno: 'shapeguard-postman-insomnia-and-bruno',
  fuzz: 'shapeguard-fuzz',
  check: 'shapeguard-check',
  coverage: 'shapeguard-coverage',
  diff: 'shapeguard-diff',
}

/**
 * Help text as Markdown: what reads as code (`<module>`, `--min`, `fuzzRoutes()`, a quoted
 * example) in code spans, the text already in backticks left alone.
 */
export function prose(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replace(
            /<[^<>\s][^<>]*>|(?<![\w-])--?[a-z][\w-]*|\b[A-Za-z][\w.]*\(\)|(?<![\w)])'[^'\s][^']*'(?!\w)/g,
            (m) => code(m.startsWith("'") ? m.slice(1, -1) : m),
          ),
    )
    .join('')
}

/** A flag as the help writes it: `-o, --out <file>`. */
function flag(name: string, o: OptionSpec): string {
  return `${o.short ? `-${o.short}, ` : ''}--${name}${o.value ? ` <${o.value}>` : ''}`
}

const defaultPattern = /\s*\(default: ([^)]*)\)/

/** A default of one word (`json`, `30`, a URL) is a value; a phrase is prose. */
const defaultText = (text: string) => (/^\S+$/.test(text) ? code(text) : prose(text))

/** A flag's entry: the flag, what it does, and its default or whether it repeats. */
function optionItem(name: string, o: OptionSpec): string {
  const found = defaultPattern.exec(o.help)
  const text = o.help.replace(defaultPattern, '')
  const notes = [
    o.multiple ? 'Repeatable.' : '',
    found?.[1] === undefined ? '' : `Default: ${defaultText(found[1])}.`,
  ].filter((n) => n !== '')
  const sentence = `${text[0]?.toUpperCase()}${text.slice(1)}`.replace(
    /\s*\(repeatable\)|; repeatable(?=\))/,
    '',
  )
  return `- ${code(flag(name, o))}: ${prose(sentence)}.${notes.length > 0 ? ` ${notes.join(' ')}` : ''}`
}

function options(all: Readonly<Record<string, OptionSpec>>): string[] {
  return Object.entries(all).map(([name, o]) => optionItem(name, o))
}

function section(name: string, command: Command): string[] {
  const usage = `shapeguard ${usageLine(name, command)} [options]${command.rest ? ` -- ${command.rest}` : ''}`
  const guide = guideSections[name]
  return [
    `## ${name}`,
    '',
    `${code(usage)}`,
    '',
    `${prose(command.description)}${guide ? ` Guide: [${code(`shapeguard ${name}`)}](../cli.md#${guide}).` : ''}`,
    '',
    ...options({ ...command.options, help }),
    '',
  ]
}

const intro = `# Commands

${generatedNote('the command definitions in src/cli/')}

\`shapeguard <command> <module> [options]\` runs one command on the Express app that \`<module>\`
builds and exports (as its default export, as \`app\`, or under the name \`--export\` gives),
without starting its server. The guide is [The \`shapeguard\` command](../cli.md); this page lists
every command and flag as the command's own \`--help\` does.
`

/** The page, from the definitions as they are now. */
export function commandsReference(): string {
  const names = Object.keys(commands)
  const summary = table(
    ['Command', 'What it does'],
    names.map((name) => [`[${code(name)}](#${anchorOf(name)})`, commands[name]?.summary ?? '']),
  )
  const statuses = (Object.keys(EXIT) as (keyof typeof EXIT)[]).map(
    (key) => `- ${code(String(EXIT[key]))} (${code(`EXIT.${key}`)}): ${exitMeaning[key]}`,
  )
  return [
    intro,
    ...summary,
    '',
    'Without a command:',
    '',
    ...options(mainOptions),
    '',
    ...names.flatMap((name) => section(name, commands[name] as Command)),
    '## Exit statuses',
    '',
    ...statuses,
    '',
  ].join('\n')
}

if (isMain(import.meta.url)) {
  writeFileSync(outputPath, commandsReference())
  console.log(`${relative(root, outputPath)}: ${Object.keys(commands).length} commands`)
}
