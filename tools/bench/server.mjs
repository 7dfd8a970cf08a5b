// Starts tools/test/serve-dist.mjs for the benchmark and stops it again: the
// build (dist/) on the harness, widget and hostile ports, and the test pages
// (dist-test/, the fixtures) on the test origins of e2e/origins.ts (+3, +4).
import { spawn } from 'node:child_process'
import { join } from 'node:path'

async function answers(url) {
  try {
    const response = await fetch(url)
    await response.arrayBuffer()
    return true
  } catch {
    return false
  }
}

/**
 * Returns { stop(), reused }. If every port already answers (e.g. a
 * Playwright run left its server up), that server is reused: it serves the
 * same folders. `roots` are serve-dist's --root folders (default dist/).
 */
export async function startDistServer(root, ports, roots = ['dist']) {
  const urls = ports.map((port) => `http://127.0.0.1:${port}/`)
  const up = await Promise.all(urls.map(answers))
  if (up.every(Boolean)) return { reused: true, stop: async () => {} }
  if (up.some(Boolean)) throw new Error(`some of the ports ${ports.join(', ')} are taken by another process`)

  const child = spawn(process.execPath, [join(root, 'tools', 'test', 'serve-dist.mjs'), ...roots.flatMap((dir) => ['--root', dir]), ...ports.map(String)], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const deadline = Date.now() + 15_000
  while (!(await Promise.all(urls.map(answers))).every(Boolean)) {
    if (child.exitCode !== null) throw new Error(`serve-dist exited early (${child.exitCode}): ${stderr.trim()}`)
    if (Date.now() > deadline) {
      child.kill()
      throw new Error('serve-dist did not answer within 15 s')
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return {
    reused: false,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill()
      }),
  }
}

/** The build on `base` … + 2 and the test pages on + 3 and + 4 (e2e/origins.ts); one stop() for both. */
export async function startBenchServers(root, base) {
  const dist = await startDistServer(root, [base, base + 1, base + 2])
  const testPages = await startDistServer(root, [base + 3, base + 4], ['dist-test'])
  return {
    reused: dist.reused && testPages.reused,
    stop: async () => {
      await testPages.stop()
      await dist.stop()
    },
  }
}

/** The bench's origins on `base`, named as in e2e/origins.ts. */
export function benchOrigins(base) {
  const at = (offset) => `http://127.0.0.1:${base + offset}`
  return { harness: at(0), widget: at(1), hostile: at(2), testPages: at(3), testWidgets: at(4) }
}
