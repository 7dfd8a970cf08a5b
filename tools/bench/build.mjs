// Makes sure dist/ holds a production build of the current sources: builds
// when dist/ is missing, lacks a page the benchmark needs, or is older than
// any source file.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

const SOURCES = ['index.html', 'vite.config.ts', 'vite.test-pages.config.ts', 'emulator/node/pages/page-policy.ts', 'package-lock.json', 'shared', 'widget', 'host-harness', 'oauth', 'e2e/fixtures', 'e2e/support']
const SKIP = new Set(['node_modules', '.git'])

function newestMtime(path) {
  if (!existsSync(path)) return 0
  const info = statSync(path)
  if (!info.isDirectory()) return info.mtimeMs
  let newest = 0
  for (const entry of readdirSync(path)) {
    if (!SKIP.has(entry)) newest = Math.max(newest, newestMtime(join(path, entry)))
  }
  return newest
}

/** Why dist/ must be rebuilt, or null when it is fresh. */
export function staleReason(root, requiredPages) {
  const distIndex = join(root, 'dist', 'index.html')
  if (!existsSync(distIndex)) return 'dist/ is missing'
  const missing = requiredPages.find((page) => !existsSync(join(root, page)))
  if (missing) return `${missing} is missing`
  const built = statSync(distIndex).mtimeMs
  const changed = SOURCES.find((source) => newestMtime(join(root, source)) > built)
  return changed ? `${changed} changed since the last build` : null
}

export function ensureBuild(root, requiredPages) {
  const reason = staleReason(root, requiredPages)
  if (!reason) return false
  // npm run build, not vite build alone: vite empties dist/, and the package section packs dist/sdk/ (build:package).
  console.log(`building (${reason}): npm run build`)
  const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) throw new Error(`npm run build failed with exit code ${result.status}`)
  return true
}
