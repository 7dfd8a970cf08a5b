// Whether ports are free right now, and the next free block from a port: the one home of the probe, for the server
// (a refused start names the next free block), the CLI and the test helpers (emulator/testing/free-ports.mjs).
import { createServer } from 'node:net'

/** Whether `port` on `host` can be bound right now. */
export function portFree(port, host = '127.0.0.1') {
  return new Promise((done) => {
    const server = createServer()
    server.once('error', () => done(false))
    server.listen(port, host, () => server.close(() => done(true)))
  })
}

/**
 * The first port from `from` up (at most `tries` candidates) that starts a block of `count` consecutive ports all
 * free on `host` right now and all accepted by `allowed` (e.g. not refused by Chromium); null when none is.
 */
export async function freeBlockFrom(from, count, { host = '127.0.0.1', tries = 100, allowed = () => true } = {}) {
  for (let first = from; first < from + tries && first + count - 1 <= 65535; first++) {
    let ok = true
    for (let port = first; ok && port < first + count; port++) ok = allowed(port) && (await portFree(port, host))
    if (ok) return first
  }
  return null
}
