#!/usr/bin/env node
// npm start: the emulated CRM as one local server (server/cli.ts; see
// `npm start -- --help`). The server is TypeScript and imports shared/api
// directly, so it is loaded through tsx (Node 20 cannot strip types itself).
// With --preview it builds once and serves dist/ as static files on
// 4173/4174 instead: browser-only mode, the API served in the page by MSW.
import { spawnSync, spawn } from 'node:child_process'

const root = new URL('..', import.meta.url).pathname

if (process.argv.includes('--preview')) {
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
  spawn('node', ['scripts/serve-dist.mjs', '4173', '4174'], { cwd: root, stdio: 'inherit' })
  console.log('\n  Ringside harness (browser-only): http://127.0.0.1:4173/\n')
} else {
  const { tsImport } = await import('tsx/esm/api')
  const { main } = await tsImport('../server/cli.ts', import.meta.url)
  await main(process.argv)
}
