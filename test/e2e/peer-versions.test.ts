import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import {
  valibotHasToNumber,
  yupHasDatetime,
  yupHasExact,
  yupIsStandard,
} from '../support/peer-features.js'
import {
  installedVersion,
  owningPackage,
  type Peer,
  peerMode,
  peers,
  pinnedLowest,
  rangeLowest,
} from '../support/peers.js'

// Which peer versions this run's tests (and the src/ they import) really get: with
// SHAPEGUARD_PEERS=lowest every peer name must load the lowest-version alias, otherwise the
// newest package under its own name; through vite (test and src files), through Node's own
// resolution (packages vitest leaves to Node) and in a node process a test starts (tsx fixtures,
// the demo). Without this the lowest mode could quietly test the newest.

const mode = peerMode()

/** One export of the peer, by name and by its alias: the same object iff the name was aliased. */
const loaders: Record<string, () => Promise<readonly [unknown, unknown]>> = {
  zod: async () => [(await import('zod')).string, (await import('zod-lowest')).string],
  valibot: async () => [(await import('valibot')).string, (await import('valibot-lowest')).string],
  yup: async () => [(await import('yup')).string, (await import('yup-lowest')).string],
  pino: async () => [(await import('pino')).default, (await import('pino-lowest')).default],
  winston: async () => [
    (await import('winston')).createLogger,
    (await import('winston-lowest')).createLogger,
  ],
  ioredis: async () => [
    (await import('ioredis')).default,
    (await import('ioredis-lowest')).default,
  ],
  redis: async () => [
    (await import('redis')).createClient,
    (await import('redis-lowest')).createClient,
  ],
  express4: async () => [
    (await import('express4')).default,
    (await import('express-lowest')).default,
  ],
}

/** What the peer reports of its own version at run time, for those that do. */
const reported: Record<string, () => Promise<string>> = {
  zod: async () => {
    const { major, minor, patch } = (await import('zod/v4/core')).version
    return `${major}.${minor}.${patch}`
  },
  pino: async () => (await import('pino')).default.version,
  winston: async () => (await import('winston')).default.version,
}

/** The folder under node_modules each peer name must come from in this mode. */
function folder(peer: Peer): string {
  return mode === 'lowest' ? peer.lowest : peer.specifier
}

function expected(peer: Peer): string {
  return installedVersion(folder(peer))
}

const require = createRequire(import.meta.url)

describe(`peer versions (${mode})`, () => {
  it.each(peers.map((peer) => [peer.specifier, peer] as const))(
    '%s pins the lowest version its peer range allows',
    (_, peer) => {
      expect(pinnedLowest(peer)).toBe(rangeLowest(peer))
      expect(installedVersion(peer.lowest)).toBe(pinnedLowest(peer))
    },
  )

  it.each(peers.map((peer) => [peer.specifier, peer] as const))(
    `%s loads the ${mode} version`,
    async (_, peer) => {
      const [byName, byAlias] = await loaders[peer.specifier]!()
      expect(byName).toBeTypeOf('function')
      if (mode === 'lowest') expect(byName).toBe(byAlias)
      else expect(byName).not.toBe(byAlias)
      const version = await reported[peer.specifier]?.()
      if (version !== undefined) expect(version).toBe(expected(peer))
      if (mode === 'newest') expect(installedVersion(peer.specifier)).not.toBe(pinnedLowest(peer))
    },
  )

  it.each(peers.map((peer) => [peer.specifier, peer] as const))(
    `%s resolves to the ${mode} version through Node, here and in a child process`,
    (_, peer) => {
      const want = { folder: folder(peer), version: expected(peer) }
      expect(owningPackage(require.resolve(peer.specifier))).toEqual(want)
      const child = spawnSync(
        process.execPath,
        ['-e', `process.stdout.write(require.resolve(${JSON.stringify(peer.specifier)}))`],
        { cwd: import.meta.dirname, encoding: 'utf8' },
      )
      expect(child.status, child.stderr).toBe(0)
      expect(owningPackage(child.stdout)).toEqual(want)
    },
  )

  it('keeps Express 5 at the newest in both modes', async () => {
    const express5 = (await import('express')).default
    expect(express5).not.toBe((await import('express4')).default)
    expect(installedVersion('express')).toMatch(/^5\./)
    expect(owningPackage(require.resolve('express')).folder).toBe('express')
  })

  // Tests that need a newer peer's API skip under the lowest peers; with the newest, none may.
  it('has every peer feature the tests ask for with the newest peers', () => {
    const features = { yupIsStandard, yupHasExact, yupHasDatetime, valibotHasToNumber }
    if (mode === 'newest')
      expect(Object.values(features).every(Boolean), JSON.stringify(features)).toBe(true)
  })
})
