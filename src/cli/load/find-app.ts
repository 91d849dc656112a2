import { UsageError } from '../usage-error.js'

type Namespace = Record<string, unknown>

/** An Express app or router: a function with `use()` and a layer stack or `handle()`. */
export function isApp(value: unknown): boolean {
  if (typeof value !== 'function') return false
  const host = value as { use?: unknown; handle?: unknown; stack?: unknown }
  return (
    typeof host.use === 'function' &&
    (typeof host.handle === 'function' || Array.isArray(host.stack))
  )
}

/** What a CommonJS module assigned to `module.exports`, when it is an object of exports. */
function exportsObject(ns: Namespace): Namespace | undefined {
  const value = ns.default
  return typeof value === 'object' && value !== null ? (value as Namespace) : undefined
}

/** `name` among the module's exports, ESM or CommonJS. */
export function exported(ns: Namespace, name: string): unknown {
  return Object.hasOwn(ns, name) ? ns[name] : exportsObject(ns)?.[name]
}

function describeExports(ns: Namespace): string {
  const names = Object.keys(ns).map((name) => `${name} (${typeof ns[name]})`)
  const cjs = exportsObject(ns)
  if (cjs !== undefined)
    names.push(...Object.keys(cjs).map((name) => `default.${name} (${typeof cjs[name]})`))
  return names.length > 0 ? names.join(', ') : 'nothing'
}

/**
 * The Express app a module exports: `--export name` if given, else the default export or `app`.
 * A function of no arguments that is not an app is called as a factory (`createApp()`), awaited.
 */
export async function findApp(ns: Namespace, name: string | undefined, shown: string) {
  const candidates: [string, unknown][] =
    name === undefined
      ? [
          ['default', ns.default],
          ['app', exported(ns, 'app')],
        ]
      : [[name, exported(ns, name)]]
  const app = candidates.find(([, value]) => isApp(value))
  if (app !== undefined) return app[1]
  const factory = candidates.find(([, value]) => typeof value === 'function' && value.length === 0)
  if (factory !== undefined) {
    const [key, make] = factory
    let made: unknown
    try {
      made = await (make as () => unknown)()
    } catch (error) {
      const detail = error instanceof Error ? (error.stack ?? error.message) : String(error)
      throw new UsageError(`${shown}: ${key}() threw:\n${detail}`)
    }
    if (isApp(made)) return made
    throw new UsageError(
      `${shown}: its export ${key} is a function, and ${key}() returned ${typeof made}, not an Express app. Export the app itself, or a function that returns it.`,
    )
  }
  const wanted =
    name === undefined ? 'as its default export or as `app`' : `under the name ${name} (--export)`
  throw new UsageError(
    `${shown} exports no Express app ${wanted}; it exports ${describeExports(ns)}.\n` +
      'Export the app (`export default app`, `export const app`, `module.exports = app`), ' +
      'or name its export with --export <name>.',
  )
}
