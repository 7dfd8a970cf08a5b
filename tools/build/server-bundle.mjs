// The server is TypeScript and imports the emulator directly; Node 22 strips types by default only from 22.18 on, so it is
// bundled with esbuild into node_modules/.cache/ringside/ (a fraction of a second) and that bundle
// runs. Loading the sources through a TypeScript loader instead would compile them in the importing
// process every time, which costs a restart about a second and the server some 50 MB of memory for
// good (and a test worker that starts servers several seconds). Used by `npm start`
// (tools/start.mjs) and by the e2e tests that start a server of their own.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const root = new URL('../..', import.meta.url).pathname

/**
 * Bundles a server module (packages stay imports of node_modules) and returns the bundle's path,
 * named by its content. `entry` is relative to the repository root.
 */
export async function bundleServer(entry = 'emulator/node/start-command.ts') {
  const { build, stop } = await import('esbuild')
  const result = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
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
