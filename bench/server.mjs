// Starts scripts/serve-dist.mjs (dist/ on the harness, widget and hostile
// ports) for the benchmark and stops it again.
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
 * same dist/.
 */
export async function startDistServer(root, ports) {
  const urls = ports.map((port) => `http://127.0.0.1:${port}/`)
  const up = await Promise.all(urls.map(answers))
  if (up.every(Boolean)) return { reused: true, stop: async () => {} }
  if (up.some(Boolean)) throw new Error(`some of the ports ${ports.join(', ')} are taken by another process`)

  const child = spawn(process.execPath, [join(root, 'scripts', 'serve-dist.mjs'), ...ports.map(String)], {
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
