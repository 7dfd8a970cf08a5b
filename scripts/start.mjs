#!/usr/bin/env node
// npm start: the harness on http://127.0.0.1:5173 and the same pages on
// http://127.0.0.1:5174, the origin the default widget registration uses, so
// the harness and the widget talk across origins exactly as in a real CRM.
// With --preview it builds once and serves dist/ on 4173/4174 instead.
import { spawnSync, spawn } from 'node:child_process'
import { createServer } from 'vite'

const root = new URL('..', import.meta.url).pathname

if (process.argv.includes('--preview')) {
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
  spawn('node', ['scripts/serve-dist.mjs', '4173', '4174'], { cwd: root, stdio: 'inherit' })
  console.log('\n  Ringside harness: http://127.0.0.1:4173/\n')
} else {
  const harness = await createServer({ root, server: { port: 5173 } })
  const widgetOrigin = await createServer({ root, server: { port: 5174, hmr: { port: 24679 } } })
  await harness.listen()
  await widgetOrigin.listen()
  console.log('\n  Ringside harness: http://127.0.0.1:5173/')
  console.log('  Reference widget: http://127.0.0.1:5174/widget/  (second origin)\n')
}
