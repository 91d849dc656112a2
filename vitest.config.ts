import { defineConfig } from 'vitest/config'
import { peerAliases, peerEnv, peerMode } from './test/support/peers.js'

// SHAPEGUARD_PEERS=lowest (npm run test:peers): every import of a peer gets the lowest version its
// peer range allows, through vite's aliases and, for what vite leaves to Node (node_modules, child
// processes), a module hook (test/support/peers.ts). test/e2e/peer-versions.test.ts proves it.
const peers = peerMode()
Object.assign(process.env, peerEnv(peers))

export default defineConfig({
  resolve: { alias: peerAliases(peers) },
  test: {
    setupFiles: ['./test/setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'test/package/**', 'test/docs-site/**'],
          typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] },
        },
      },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'] } },
      // The docs site (docs/.vitepress): one VitePress build, then chromium.
      {
        extends: true,
        test: {
          name: 'site',
          include: ['test/docs-site/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 300_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'package',
          include: ['test/package/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
})
