#!/usr/bin/env node
// npm start: the emulated CRM as one local server (emulator/node/start-command.ts; see
// `npm start -- --help`), run from its bundle (tools/build/server-bundle.mjs says why).
// With --preview it builds once and serves dist/ as static files on
// DEFAULT_PORTS.preview and the next ports (shared/ports.mjs) instead: browser-only mode, the API served in the page by MSW.
import { spawnSync, spawn } from 'node:child_process'
import { pathToFileURL } from 'node:url'
import { bundleServer } from './build/server-bundle.mjs'
import { DEFAULT_PORTS, loopbackUrl } from '../shared/ports.mjs'

const root = new URL('..', import.meta.url).pathname

if (process.argv.includes('--preview')) {
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
  const port = DEFAULT_PORTS.preview
  spawn('node', ['tools/test/serve-dist.mjs', String(port), String(port + 1)], { cwd: root, stdio: 'inherit' })
  console.log(`\n  Ringside harness (browser-only): ${loopbackUrl(port)}/\n`)
} else {
  process.setSourceMapsEnabled(true)
  const { main } = await import(pathToFileURL(await bundleServer()).href)
  await main(process.argv)
}
