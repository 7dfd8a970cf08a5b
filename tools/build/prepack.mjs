#!/usr/bin/env node
// `npm pack` (prepack): the package ships the build (lib/ from tsup and tsc,
// dist/ from Vite with the SDK under dist/sdk/). When a file of it is missing
// (a fresh clone) or older than a source it is built from, run `npm run build`
// first; otherwise pack what is there. `--check` builds nothing: exit 0 when
// the build is there and up to date, 1 when it would build.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '../..')
/** Who asks (the messages name it): `npm pack`, or a script that runs the build first (`node tools/build/prepack.mjs check-widget`). */
const checkOnly = process.argv.includes('--check')
const label = process.argv.slice(2).find((arg) => arg !== '--check') ?? 'npm pack'
const outputs = ['lib/cli.js', 'lib/kit.config.js', 'lib/tokens.css', 'lib/report.css', 'lib/types/package/sdk.d.ts', 'dist/index.html', 'dist/widget/index.html', 'dist/sdk/calling-extensions.js', 'dist/sdk/calling-extensions.umd.js']
// What the build reads: the sources of the pages, the SDK, the server, the kit and the package, and their configs.
const sourceDirs = ['package', 'shared', 'emulator', 'kit', 'host-harness', 'widget', 'oauth', 'public', 'tools/build', 'bin']
const sourceFiles = ['package.json', 'package-lock.json', 'index.html', 'vite.config.ts', 'vite.widget.config.ts', 'tsup.config.ts', 'tsconfig.json', 'tsconfig.package.json']
const FILE_BUDGET = 20_000

/** The newest modification time among the sources (a bounded walk; skips node_modules and dot folders). */
function newestSource() {
  let newest = 0
  let seen = 0
  const visit = (path) => {
    if (++seen > FILE_BUDGET) return
    let stat
    try {
      stat = statSync(path)
    } catch {
      return
    }
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) if (entry !== 'node_modules' && !entry.startsWith('.')) visit(join(path, entry))
    } else {
      newest = Math.max(newest, stat.mtimeMs)
    }
  }
  for (const dir of sourceDirs) visit(join(root, dir))
  for (const file of sourceFiles) visit(join(root, file))
  return newest
}

const missing = outputs.filter((file) => !existsSync(join(root, file)))
const oldestOutput = missing.length > 0 ? 0 : Math.min(...outputs.map((file) => statSync(join(root, file)).mtimeMs))
const why = missing.length > 0 ? `missing ${missing.join(', ')}` : oldestOutput < newestSource() ? 'a source is newer than the build' : null
if (checkOnly) process.exit(why === null ? 0 : 1)
if (why !== null) {
  console.error(`${label}: building the package first (${why}): npm run build`)
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 2, 2], shell: process.platform === 'win32' })
  const stillMissing = outputs.filter((file) => !existsSync(join(root, file)))
  if (build.status !== 0 || stillMissing.length > 0) {
    console.error(`${label}: the build failed${stillMissing.length > 0 ? ` (still missing ${stillMissing.join(', ')})` : ''}${label === 'npm pack' ? '; nothing was packed' : ''}.`)
    process.exit(1)
  }
}
