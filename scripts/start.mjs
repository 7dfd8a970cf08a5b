#!/usr/bin/env node
// npm start: the emulated CRM as one local server (server/cli.ts; see
// `npm start -- --help`). The server is TypeScript and imports shared/api
// directly; Node 20 cannot strip types, so it is bundled with esbuild into
// node_modules/.cache/ringside/ at each start (a fraction of a second) and
// that bundle runs. Loading the sources through a TypeScript loader instead
// would compile them in the server's own process on every boot, which costs
// a restart about a second and the server some 50 MB of memory for good.
// With --preview it builds once and serves dist/ as static files on
// 4173/4174 instead: browser-only mode, the API served in the page by MSW.
import { spawnSync, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const root = new URL('..', import.meta.url).pathname

/** Bundle server/cli.ts (packages stay imports of node_modules) and return the bundle's path, named by its content. */
async function bundleServer() {
  const { build, stop } = await import('esbuild')
  const result = await build({
    entryPoints: [join(root, 'server', 'cli.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'warning',
    sourcemap: 'inline',
    sourcesContent: false,
  })
  // esbuild's service is a child process: it is not needed once the bundle is made.
  await stop()
  const text = result.outputFiles[0].text
  const dir = join(root, 'node_modules', '.cache', 'ringside')
  const file = join(dir, `server-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.mjs`)
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true })
    // Servers started at once (test suites) write the same bytes: each writes its own file and renames it into place.
    const temp = `${file}.${process.pid}.tmp`
    writeFileSync(temp, text)
    renameSync(temp, file)
  }
  return file
}

if (process.argv.includes('--preview')) {
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
  spawn('node', ['scripts/serve-dist.mjs', '4173', '4174'], { cwd: root, stdio: 'inherit' })
  console.log('\n  Ringside harness (browser-only): http://127.0.0.1:4173/\n')
} else {
  process.setSourceMapsEnabled(true)
  const { main } = await import(pathToFileURL(await bundleServer()).href)
  await main(process.argv)
}
