// Loaded with `node --import` (through NODE_OPTIONS, which vitest.config.ts sets under
// SHAPEGUARD_PEERS=lowest): an import or require of a peer that would load the project's own copy
// (node_modules/zod) loads the package SHAPEGUARD_PEER_ALIASES names for it instead
// (`zod=zod-lowest,express4=express-lowest`), in this process and in the node processes it starts.
// This covers what vite's resolve.alias does not reach: the packages vitest leaves to Node and the
// child processes tests start (tsx fixtures, the demo). A package with a copy of its own
// (node_modules/x/node_modules/yup) keeps it.
import { registerHooks } from 'node:module'

const modules = new URL('../../node_modules/', import.meta.url).href
const aliases = (process.env.SHAPEGUARD_PEER_ALIASES ?? '')
  .split(',')
  .filter(Boolean)
  .map((pair) => pair.split('='))

registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context)
    for (const [name, alias] of aliases) {
      if (specifier !== name && !specifier.startsWith(`${name}/`)) continue
      if (!resolved.url.startsWith(`${modules}${name}/`)) return resolved
      return nextResolve(alias + specifier.slice(name.length), context)
    }
    return resolved
  },
})
