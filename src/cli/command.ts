import type { Io } from './io.js'
import type { ModuleGuard } from './load/module-guard.js'

/** One option of a command, as `node:util` parseArgs takes it, with its help line. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean'
  readonly short?: string
  readonly multiple?: boolean
  /** The value's placeholder in the help (`file`, `n`). */
  readonly value?: string
  readonly help: string
}

export type Values = Record<string, string | boolean | (string | boolean)[] | undefined>

/** What a command runs with: its module argument, its parsed options, the streams. */
export interface Context {
  readonly module: string
  /** The operands before the module, for a command that takes more than one (`diff`). */
  readonly operands: readonly string[]
  readonly values: Values
  readonly io: Io
  readonly guard: ModuleGuard
  /** What follows `--` on the command line, for a command that runs one (`coverage`). */
  readonly rest?: readonly string[]
}

/** A subcommand: its help and what it does; `run` resolves with the exit status. */
export interface Command {
  /** The operands before `<module>` (`diff` takes `<base.json>` first); none by default. */
  readonly operands?: readonly string[]
  /** How the help names `<module>`, when the command also reads a document there. */
  readonly moduleOperand?: string
  readonly summary: string
  readonly description: string
  readonly options: Readonly<Record<string, OptionSpec>>
  /** It runs the command line after `--` (its help names it so: `-- <test command…>`). */
  readonly rest?: string
  readonly run: (ctx: Context) => Promise<number>
}

/** `--export` and `--load-timeout`: every command loads an app. */
export const loadOptions: Readonly<Record<string, OptionSpec>> = {
  export: {
    type: 'string',
    value: 'name',
    help: 'the export that holds the app (default: the default export, else `app`)',
  },
  'load-timeout': {
    type: 'string',
    value: 'seconds',
    help: 'how long the module may take to load (default: 30)',
  },
}

/** `--title` and `--api-version`: the commands that write the document or a collection. */
export const titleOptions: Readonly<Record<string, OptionSpec>> = {
  title: { type: 'string', value: 'text', help: "the API's title (default: package.json's name)" },
  'api-version': {
    type: 'string',
    value: 'text',
    help: "the API's version (default: package.json's version)",
  },
}

/** A string option's value (the last one given), or undefined. */
export function stringOf(values: Values, name: string): string | undefined {
  const value = values[name]
  return typeof value === 'string' ? value : undefined
}
