import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '../..')

/** The repository's docs/ folder, the site's source. */
export const docsDir = join(root, 'docs')

/** A build of the docs site in a temporary folder. */
export interface SiteBuild {
  /** The VitePress root whose `.vitepress/config.mts` re-exports docs/.vitepress/config.ts. */
  readonly siteRoot: string
  /** The built site. */
  readonly outDir: string
  /** How long `vitepress build` took. */
  readonly ms: number
}

/**
 * A VitePress root of its own in a temporary folder of the repository, whose config is the site's own
 * (docs/.vitepress/config.ts, srcDir docs/) with the output and cache moved there too: VitePress
 * keeps its temporary files in `<root>/.vitepress/.temp`, so a build here never meets one run by
 * `npm run docs:build` at the same time.
 */
export function siteRoot(): { siteRoot: string; outDir: string; cacheDir: string } {
  // Inside the repository (.tmp/ is ignored by git): the server bundle VitePress writes to its
  // temporary folder imports vue, which Node must find in node_modules.
  mkdirSync(join(root, '.tmp'), { recursive: true })
  const dir = mkdtempSync(join(root, '.tmp', 'site-'))
  const config = join(dir, '.vitepress')
  mkdirSync(config)
  writeFileSync(
    join(config, 'config.mts'),
    `export { default } from ${JSON.stringify(join(docsDir, '.vitepress/config.ts'))}\n`,
  )
  const theme = join(docsDir, '.vitepress/theme/index.ts')
  if (existsSync(theme)) {
    mkdirSync(join(config, 'theme'))
    writeFileSync(
      join(config, 'theme/index.mts'),
      `export { default } from ${JSON.stringify(theme)}\n`,
    )
  }
  return { siteRoot: dir, outDir: join(dir, 'out'), cacheDir: join(dir, 'cache') }
}

/** Runs `vitepress build` on the site into a temporary folder; rejects with its output on failure. */
export async function buildSite(): Promise<SiteBuild> {
  const { siteRoot: dir, outDir, cacheDir } = siteRoot()
  const started = Date.now()
  await new Promise<void>((done, fail) => {
    execFile(
      process.execPath,
      [join(root, 'node_modules/vitepress/bin/vitepress.js'), 'build', dir],
      {
        cwd: root,
        env: {
          ...process.env,
          ...siteEnv(outDir, cacheDir),
          NODE_ENV: 'production',
        },
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error) fail(new Error(`vitepress build failed:\n${stdout}\n${stderr}`))
        else done()
      },
    )
  })
  return { siteRoot: dir, outDir, ms: Date.now() - started }
}

/** The environment that moves the site's output and cache (read by docs/.vitepress/config.ts). */
export function siteEnv(outDir: string, cacheDir: string): Record<string, string> {
  return { SHAPEGUARD_SITE_OUT: outDir, SHAPEGUARD_SITE_CACHE: cacheDir }
}

/** Removes a build's temporary folder. */
export function removeSite(build: SiteBuild | undefined): void {
  if (build) rmSync(build.siteRoot, { recursive: true, force: true })
}
