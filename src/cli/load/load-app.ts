import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { extname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Io } from '../io.js'
import { UsageError } from '../usage-error.js'
import type { Diverted } from './divert-listen.js'
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

/**
 * Imports the module at `path` (ESM, CommonJS or TypeScript) and finds its Express app, with every
 * listen() diverted (see divertListen). A missing file, a module that throws, and a module without
 * an app are usage errors naming the file and the fix.
 */
export async function loadApp(
  path: string,
  exportName: string | undefined,
  io: Io,
  diverted: Diverted,
): Promise<LoadedApp> {
  const file = resolve(io.cwd, path)
  if (!existsSync(file))
    throw new UsageError(`${path}: no such file (paths are relative to ${io.cwd})`)
  let ns: Record<string, unknown>
  // process.exit() while the module loads (a missing environment variable, a failed connection)
  // is a module that could not be loaded, not a command that succeeded or found a problem.
  const exit = process.exit
  process.exit = ((code?: number | string | null) => {
    throw new UsageError(
      `${path} called process.exit(${code ?? ''}) while it was loaded: shapeguard needs the module ` +
        'to build the app without exiting (check what it reads at load: environment variables, ' +
        'connections, files)',
    )
  }) as typeof process.exit
  try {
    ns = await import(pathToFileURL(file).href)
  } catch (error) {
    if (error instanceof UsageError) throw error
    const help = typescript.has(extname(file)) ? typescriptHelp(error, path) : undefined
    if (help !== undefined) throw new UsageError(help)
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error)
    throw new UsageError(`${path} threw while it was loaded:\n${detail}`)
  } finally {
    process.exit = exit
  }
  const app = await findApp(ns, exportName, path)
  diverted.loaded()
  for (const where of diverted.calls) io.err(listenWarning(where))
  return { app, config: exported(ns, 'openapi'), shown: path, cjs: usesCommonJs() }
}
