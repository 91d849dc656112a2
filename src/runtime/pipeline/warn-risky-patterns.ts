import type { SchemaAdapter } from '../../engine/adapter.js'
import { riskyPatterns } from '../../engine/regex/risky-patterns.js'
import { debugFromEnv } from '../core/config.js'
import { logger } from '../logging/logger.js'
import type { IssuePart } from './issue-details.js'

// `file:line:column` of a V8 stack frame (`at fn (file:1:2)` or `at file:1:2`).
function locationOf(frame: string): string {
  const token = frame.trim().split(' ').at(-1) ?? ''
  return token.startsWith('(') ? token.slice(1, -1) : token
}

// The package's own folder (`…/src/` or `…/dist/`), from a location inside it.
function rootOf(location: string): string {
  for (const dir of ['/src/', '/dist/', '\\src\\', '\\dist\\']) {
    const at = location.lastIndexOf(dir)
    if (at >= 0) return location.slice(0, at + dir.length)
  }
  return location
}

// The first stack frame outside this package: where the route was defined.
function definedAt(): string {
  const frames = (new Error().stack ?? '').split('\n').slice(1).map(locationOf)
  const root = rootOf(frames[0] ?? '')
  return frames.find((f) => !f.startsWith(root) && !f.startsWith('node:')) ?? 'unknown'
}

/**
 * In development (`NODE_ENV` not `production`), logs one warning per author-written pattern of
 * the route's schemas that the regex screen flags as slow on hostile input: the part and field,
 * the pattern's source (the author's code, never request data) and where the route is defined.
 * @example warnRiskyPatterns(new Map([['body', zodAdapter(Body)]]))
 */
export function warnRiskyPatterns(adapters: ReadonlyMap<IssuePart, SchemaAdapter>): void {
  if (!debugFromEnv()) return
  let where: string | undefined
  for (const [part, adapter] of adapters) {
    if (adapter.ir === undefined) continue
    for (const { path, pattern, risk } of riskyPatterns(adapter.ir)) {
      where ??= definedAt()
      logger.warn(
        `shapeguard: ${path ? `${part}.${path}` : part} pattern ${pattern} can take ${risk} time on hostile input (route defined at ${where}); make it linear or cap the field's length`,
      )
    }
  }
}
