import { createRequire } from 'node:module'
import { parseArgs } from 'node:util'
import type { Command, OptionSpec } from './command.js'
import { check } from './commands/check.js'
import { coverage } from './commands/coverage.js'
import { diff } from './commands/diff.js'
import { bruno, insomnia, postman } from './commands/exports.js'
import { fuzz } from './commands/fuzz.js'
import { openapi } from './commands/openapi.js'
import type { Io } from './io.js'
import type { ModuleGuard } from './load/module-guard.js'
import { wrap } from './text.js'
import { EXIT, UsageError } from './usage-error.js'

/** The subcommands, in the order the help lists them (docs/reference/commands.md is written from here). */
export const commands: Readonly<Record<string, Command>> = {
  openapi,
  postman,
  insomnia,
  bruno,
  fuzz,
  check,
  coverage,
  diff,
}

/** `--help`, which every subcommand takes. */
export const help: OptionSpec = { type: 'boolean', short: 'h', help: 'show this help' }
/** The options of `shapeguard` without a command. */
export const mainOptions: Readonly<Record<string, OptionSpec>> = {
  help: { ...help, help: 'show this help; shapeguard <command> --help for a command' },
  version: { type: 'boolean', short: 'v', help: "show shapeguard's version" },
}

function optionLines(options: Readonly<Record<string, OptionSpec>>): string {
  const rows = Object.entries(options).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : '    '}--${name}${o.value ? ` <${o.value}>` : ''}`
    return [flag, o.help] as const
  })
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 2
  return rows.map(([flag, text]) => `  ${flag.padEnd(width)}${text}`).join('\n')
}

const exitStatus =
  `Exit status: ${EXIT.ok} success; ${EXIT.problem} fuzz, check or diff found a problem, or coverage\n` +
  `fell below --min; ${EXIT.usage} the command could not run ` +
  '(a usage error, a missing module, no app found,\na module that exits or does not finish ' +
  'loading in time).'

function mainHelp(): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length)) + 2
  const list = Object.entries(commands)
    .map(([name, c]) => `  ${name.padEnd(width)}${c.summary}`)
    .join('\n')
  return `Usage: shapeguard <command> <module> [options]

Commands:
${list}

<module> is the file that builds your Express app (ESM, CommonJS, or TypeScript where Node
strips types) and exports it: as its default export, as \`app\`, or under the name given with
--export. Its server is not started: listen() calls are diverted while it loads. It has
--load-timeout seconds (default: 30) to finish loading; a process.exit() it calls while the
command runs ends the command with exit status ${EXIT.usage}.

Options:
${optionLines(mainOptions)}

${exitStatus}
`
}

/** The command line of a command, `fuzz <module>`, as its help writes it. */
export const usageLine = (name: string, command: Command) =>
  [name, ...(command.operands ?? []), command.moduleOperand ?? 'module']
    .map((w, i) => (i === 0 ? w : `<${w}>`))
    .join(' ')

function commandHelp(name: string, command: Command): string {
  return `Usage: shapeguard ${usageLine(name, command)} [options]${command.rest ? ` -- ${command.rest}` : ''}

${wrap(command.description)}

Options:
${optionLines({ ...command.options, help })}

${exitStatus}
`
}

function version(): string {
  return createRequire(import.meta.url)('shapeguard/package.json').version
}

async function runCommand(
  name: string,
  command: Command,
  args: string[],
  io: Io,
  guard: ModuleGuard,
) {
  const dash = command.rest === undefined ? -1 : args.indexOf('--')
  const rest = dash < 0 ? undefined : args.slice(dash + 1)
  const { values, positionals } = parseArgs({
    args: dash < 0 ? args : args.slice(0, dash),
    options: { ...command.options, help },
    allowPositionals: true,
    strict: true,
  })
  if (values.help === true) {
    io.out(commandHelp(name, command))
    return EXIT.ok
  }
  const operands = positionals.slice(0, command.operands?.length ?? 0)
  const [module, ...extra] = positionals.slice(operands.length)
  if (module === undefined)
    throw new UsageError(
      command.operands === undefined
        ? `shapeguard ${name} needs the app's module: shapeguard ${name} <module>`
        : `shapeguard ${name} takes ${operands.length === 0 ? 'two arguments' : 'one more argument'}: shapeguard ${usageLine(name, command)}`,
      true,
    )
  if (extra.length > 0)
    throw new UsageError(
      command.operands === undefined
        ? `unexpected argument ${extra[0]}: shapeguard ${name} takes one module`
        : `unexpected argument ${extra[0]}: shapeguard ${usageLine(name, command)}`,
      true,
    )
  return command.run({ module, operands, values, io, guard, ...(rest && { rest }) })
}

// An error of the entries (an option error, a missing peer) names shapeguard already, also after
// its name in a stack (`TypeError: shapeguard: …`): one prefix.
const prefixed = (message: string): string =>
  `shapeguard: ${message.replace(/^(?:[A-Za-z]*Error: )?shapeguard: /, (m) => m.slice(0, m.indexOf('shapeguard: ')))}`

/**
 * Runs the command line `args` (without node and the script); resolves with the exit status.
 * `guard` holds the app's module to the run (see guardModule).
 */
export async function run(args: readonly string[], io: Io, guard: ModuleGuard): Promise<number> {
  const [first, ...rest] = args
  try {
    if (first === undefined || first === '--help' || first === '-h') {
      io.out(mainHelp())
      return first === undefined ? EXIT.usage : EXIT.ok
    }
    if (first === '--version' || first === '-v') {
      io.out(`${version()}\n`)
      return EXIT.ok
    }
    const command = Object.hasOwn(commands, first) ? commands[first] : undefined
    if (command === undefined)
      throw new UsageError(`unknown command ${first} (${Object.keys(commands).join(', ')})`, true)
    return await runCommand(first, command, rest, io, guard)
  } catch (error) {
    const code = (error as { code?: unknown }).code
    const parse = typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')
    if (error instanceof UsageError || parse) {
      const named = first !== undefined && Object.hasOwn(commands, first) ? ` ${first}` : ''
      const more = parse || (error as UsageError).seeHelp ? `See shapeguard${named} --help.\n` : ''
      io.err(`${prefixed((error as Error).message)}\n${more}`)
      return EXIT.usage
    }
    io.err(`${prefixed(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`)
    return EXIT.usage
  }
}
