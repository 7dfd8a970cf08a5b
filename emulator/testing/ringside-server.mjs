// The `npm start` server (API only) in a child process, for the benchmark
// sections that measure it over HTTP: start it on a data folder, time it to
// its first answer, stop it cleanly or kill it like a crash, start it again
// on the same folder.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { freePortPair } from './free-ports.mjs'
import { join } from 'node:path'

/** The harness's own private-app token: every scope, never rate limited. */
export const PAT = 'pat-local'

/**
 * Starts `node tools/start.mjs --no-pages --data <data> --port <port>`
 * (with --fresh when asked; `nodeArgs` go to node first) and waits for the first 200 of
 * `GET /crm/v3/objects/contacts?limit=1`. Resolves to
 * { port, pid, baseUrl, firstAnswerMs (spawn → that 200), stop(), kill(), rssKb() }.
 * `stop()` is a clean stop (SIGTERM, resolves to the ms it took to exit);
 * `kill()` is SIGKILL, like a crash.
 */
export async function startRingsideServer({ root, data, port, fresh = false, timeoutMs = 120_000, nodeArgs = [] }) {
  port ??= await freePortPair()
  const args = [...nodeArgs, join(root, 'tools', 'start.mjs'), '--no-pages', '--data', data, '--port', String(port), ...(fresh ? ['--fresh'] : [])]
  const started = performance.now()
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)))
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  const baseUrl = `http://127.0.0.1:${port}`
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited early (${child.exitCode ?? child.signalCode}): ${stderr.trim()}`)
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`the server did not answer within ${timeoutMs / 1000} s: ${stderr.trim()}`)
    }
    const status = await fetch(`${baseUrl}/crm/v3/objects/contacts?limit=1`, { headers: { authorization: `Bearer ${PAT}` } }).then(
      async (r) => {
        await r.arrayBuffer()
        return r.status
      },
      () => 0,
    )
    if (status === 200) break
    await new Promise((r) => setTimeout(r, 10))
  }
  const firstAnswerMs = performance.now() - started
  return {
    port,
    pid: child.pid,
    baseUrl,
    firstAnswerMs,
    /** VmRSS and VmHWM (peak) of the server process, in kB, from /proc (Linux). */
    rssKb() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
      const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN)
      return { rss: kb('VmRSS'), peak: kb('VmHWM') }
    },
    async stop() {
      const t = performance.now()
      child.kill('SIGTERM')
      await exited
      return performance.now() - t
    },
    async kill() {
      child.kill('SIGKILL')
      await exited
    },
  }
}

/** Turns the rate limits off (the benchmarks measure the handler, not the limiter). */
export async function rateLimitsOff(baseUrl) {
  const off = await fetch(`${baseUrl}/_ringside/v1/rate-limits`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"enabled":false}' })
  if (!off.ok) throw new Error(`could not turn the rate limits off: ${off.status} ${await off.text()}`)
}
