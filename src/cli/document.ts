import { existsSync, readFileSync } from 'node:fs'
import { basename, dirname, extname, join, resolve } from 'node:path'
import type { OpenAPIDocument } from 'shapeguard/openapi'
import { type Context, stringOf } from './command.js'
import { openapiEntry } from './entries.js'
import { checkOut } from './io.js'
import { type LoadedApp, loadApp } from './load/load-app.js'
import { UsageError } from './usage-error.js'

/** The name and version of the package.json nearest to `file`, if there is one. */
function nearestPackage(file: string): { name?: unknown; version?: unknown } {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const candidate = join(dir, 'package.json')
    if (existsSync(candidate)) {
      try {
        return JSON.parse(readFileSync(candidate, 'utf8'))
      } catch {
        return {}
      }
    }
    if (dirname(dir) === dir) return {}
  }
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined)

/** What a command works on: the app, its document, generateOpenAPI()'s warnings. */
export interface AppDocument {
  readonly loaded: LoadedApp
  readonly doc: OpenAPIDocument
  /** generateOpenAPI()'s warnings, without their `shapeguard:` prefix. */
  readonly warnings: readonly string[]
}

/**
 * Loads the app of the command's module (`--export`) and makes its OpenAPI document:
 * generateOpenAPI() with the module's `openapi` export (servers, tags…) and the app, whose
 * shapeguard() gives the envelope, the error format and the security schemes. The title and version
 * come from `--title` and `--api-version`, else that export, else the nearest package.json, else
 * the file's name and 0.0.0. An `--out` that would replace the module is refused first.
 */
export async function appDocument(ctx: Context): Promise<AppDocument> {
  const { module, values, io } = ctx
  checkOut(io, stringOf(values, 'out'), module)
  const loaded = await loadApp(ctx)
  const base = loaded.config
  if (base !== undefined && (typeof base !== 'object' || base === null))
    throw new UsageError(
      `${loaded.shown}: its export openapi must be generateOpenAPI()'s configuration (an object), not ${typeof base}`,
    )
  const config = (base ?? {}) as Record<string, unknown>
  const file = resolve(io.cwd, module)
  const pkg = nearestPackage(file)
  const warnings: string[] = []
  const { generateOpenAPI } = await openapiEntry(loaded.cjs)
  try {
    const doc = generateOpenAPI({
      ...config,
      title:
        stringOf(values, 'title') ??
        text(config.title) ??
        text(pkg.name) ??
        basename(file, extname(file)),
      version:
        stringOf(values, 'api-version') ?? text(config.version) ?? text(pkg.version) ?? '0.0.0',
      app: loaded.app,
      onWarning: (message) => warnings.push(message.replace(/^shapeguard: /, '')),
    })
    return { loaded, doc, warnings }
  } catch (error) {
    if (!(error instanceof TypeError)) throw error
    throw new UsageError(
      `${loaded.shown}: generateOpenAPI() cannot document the app: ${error.message.replace(/^shapeguard: /, '')}\n` +
        "Security schemes are declared with their verifiers in the app's shapeguard({ auth }); servers, tags and the other document options go in the module's openapi export.",
    )
  }
}
