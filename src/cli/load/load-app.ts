import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { extname, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { type Context, stringOf, type Values } from '../command.js'
import { moduleExtensions } from '../io.js'
import { UsageError } from '../usage-error.js'
import { divertListen } from './divert-listen.js'
import { exported, findApp } from './find-app.js'

/** The user's app, loaded from its module. */
export interface LoadedApp {
  readonly app: unknown
  /** The module's `openapi` export: generateOpenAPI's configuration without `app`. */
  readonly config: unknown
  /** The module's path as it was given, for messages. */
  readonly shown: string
  /** The app loaded shapeguard's CommonJS build (the command then uses it too). */
  readonly cjs: boolean
}

const requireHere = createRequire(import.meta.url)
const typescript = new Set(['.ts', '.mts', '.cts'])

/** Why a TypeScript module failed to load, and how to run it, when that is the reason. */
function typescriptHelp(error: unknown, shown: string): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  if (code === 'ERR_UNKNOWN_FILE_EXTENSION')
    return (
      `${shown}: this Node.js (${process.version}) does not load TypeScript by itself; ` +
      'Node 22.18+ and 23.6+ strip types by default. On an older Node 22, run it with ' +
      "NODE_OPTIONS='--experimental-strip-types' npx shapeguard …, or through tsx: " +
      "NODE_OPTIONS='--import tsx' npx shapeguard …"
    )
  const missing = /Cannot find module '([^']+)\.js'/.exec(String((error as Error)?.message))
  if (code === 'ERR_MODULE_NOT_FOUND' && missing && existsSync(`${missing[1]}.ts`))
    return (
      `${shown} imports ${missing[1]}.js, which is a .ts file: Node's type stripping does not map ` +
      '.js imports to .ts files. Import it as .ts (TypeScript 5.7+: rewriteRelativeImportExtensions), ' +
      "or load the module through tsx: NODE_OPTIONS='--import tsx' npx shapeguard …"
    )
  if (code === 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX')
    return (
      `${shown} uses TypeScript that Node's type stripping cannot run (enums, namespaces, ` +
      "parameter properties). Load it through tsx: NODE_OPTIONS='--import tsx' npx shapeguard …\n" +
      String((error as Error).message)
    )
  return undefined
}

function listenWarning(where: string): string {
  return `warning: ${where} calls listen() as the module is loaded. Its server was kept off its port
(it listened on a free port of 127.0.0.1 until the command ended). Start the server only when the
file is run, or in a file of its own that imports the app:
  if (import.meta.main) app.listen(3000)         // ESM (Node 22.18+, 24.2+)
  if (require.main === module) app.listen(3000)  // CommonJS
`
}

/** Whether shapeguard's CommonJS build is loaded (the app required it). */
function usesCommonJs(): boolean {
  const main = requireHere.resolve('shapeguard')
  return requireHere.cache[main] !== undefined
}

/** `--load-timeout` in milliseconds (default 30 s). */
function loadTimeout(values: Values): number {
  const text = stringOf(values, 'load-timeout')
  if (text === undefined) return 30_000
  const seconds = Number(text)
  if (!/^\d+(?:\.\d+)?$/.test(text) || seconds <= 0 || seconds > 86_400)
    throw new UsageError('--load-timeout takes seconds: a number above 0, at most 86400')
  return Math.max(1, Math.round(seconds * 1000))
}

/**
 * What went wrong as the module was imported, as a usage error. A syntax error's message and
 * stack can quote the file (a password file given by mistake): only where it is, if known.
 */
function importError(error: unknown, file: string, path: string, cwd: string): UsageError {
  const help = typescript.has(extname(file)) ? typescriptHelp(error, path) : undefined
  if (help !== undefined) return new UsageError(help)
  if (error instanceof SyntaxError) {
    // A compile error's stack starts with `/path/app.cjs:LINE` (CommonJS) or a file URL
    // (TypeScript); an ES module's says nowhere.
    const [, where = '', line] = /^(.+):(\d+)\n/.exec(error.stack ?? '') ?? []
    const source = where.startsWith('file://') ? fileURLToPath(where) : where
    const at = existsSync(source) ? ` at ${relative(cwd, source)}:${line}` : ''
    return new UsageError(
      `${path} could not be loaded: a syntax error${at}, in it or in what it imports or parses. ` +
        `Its message is not shown, as it can quote the file: node --check ${path} shows it.`,
    )
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error)
  return new UsageError(`${path} threw while it was loaded:\n${detail}`)
}

/**
 * Imports the module of the command (ESM, CommonJS or TypeScript) and finds its Express app
 * (`--export`), with every listen() diverted (see divertListen) and the guard told when loading
 * starts and ends. A missing file, a file that is not a module, a module that throws, and a
 * module without an app are usage errors naming the file and the fix.
 */
export async function loadApp({ module: path, values, io, guard }: Context): Promise<LoadedApp> {
  const file = resolve(io.cwd, path)
  if (!existsSync(file))
    throw new UsageError(`${path}: no such file (paths are relative to ${io.cwd})`)
  if (!moduleExtensions.includes(extname(file)))
    throw new UsageError(
      `${path}: not a JavaScript or TypeScript module (${moduleExtensions.join(', ')}): give the file that builds and exports the Express app`,
    )
  const ms = loadTimeout(values)
  const diverted = divertListen(io.cwd)
  guard.loading(path, ms)
  let ns: Record<string, unknown>
  try {
    ns = await import(pathToFileURL(file).href)
  } catch (error) {
    throw importError(error, file, path, io.cwd)
  }
  const app = await findApp(ns, stringOf(values, 'export'), path)
  diverted.loaded()
  guard.loaded()
  for (const where of diverted.calls) io.err(listenWarning(where))
  return { app, config: exported(ns, 'openapi'), shown: path, cjs: usesCommonJs() }
}
