/**
 * One test per finding of the hostile audit of server mode that the server
 * answers (the API's own findings are in emulator/core/audit.test.ts): foreign
 * Hosts, cross-site writes, the data folder as a page, bodies over the limit,
 * upgrade requests nobody serves, and stopping with connections open.
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { connect } from 'node:net'
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ACCOUNT } from '../../core/http/auth.ts'
import { MAX_BODY_BYTES } from '../../core/http/http.ts'
import { IMPORT_LIMITS } from '../../core/data/import-stream.ts'
import { startRingside, type RingsideServer } from '../server.ts'
import { freePortPair, killRunningServers, removeScratchDirs, REPO, runCli, scratchDir, waitForServer } from './support.ts'

interface RawAnswer {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

/** One HTTP request with any headers (Host included, which fetch will not set). */
function raw(port: number, method: string, path: string, headers: Record<string, string | number> = {}, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }))
    })
    req.on('error', reject)
    if (body !== undefined) req.end(body)
    else if (headers['content-length'] !== undefined) req.flushHeaders()
    else req.end()
  })
}

/** Send an upgrade request on a bare socket: the first line of the answer, and whether the socket was closed. */
function upgrade(port: number, host = '127.0.0.1'): Promise<{ statusLine: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET /socket HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`)
    })
    let text = ''
    socket.on('data', (chunk) => (text += chunk))
    socket.on('close', () => resolve({ statusLine: text.split('\r\n')[0] ?? '', closed: true }))
    socket.on('error', () => {})
  })
}

const json = (answer: RawAnswer) => JSON.parse(answer.body) as { status: string; message: string; category: string; correlationId: string }

describe('the server behind a browser', { timeout: 30_000 }, () => {
  let server: RingsideServer
  let port: number
  let dataDir: string

  beforeAll(async () => {
    port = await freePortPair()
    // The data folder inside the repository, where the page server (Vite, rooted there) could reach it.
    dataDir = join(REPO, `.ringside-audit-${port}`)
    server = await startRingside({ port, data: dataDir, pages: 'vite', allowedHosts: ['crm.test'] })
  }, 60_000)

  afterAll(async () => {
    await server?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  test('a foreign Host (DNS rebinding) is refused with 403 on both ports, saying how to allow it; own names are served', async () => {
    for (const p of [port, port + 1]) {
      const refused = await raw(p, 'GET', '/_ringside/v1/export', { host: `attacker.example:${p}` })
      expect(refused.status).toBe(403)
      expect(json(refused).message).toContain('--allowed-host attacker.example')
      expect(json(refused).correlationId).toMatch(/^[0-9a-f-]{36}$/)
      expect(refused.body).not.toContain(ACCOUNT.clientSecret)
      for (const host of [`localhost:${p}`, `127.0.0.1:${p}`, `[::1]:${p}`, `crm.test:${p}`]) {
        expect((await raw(p, 'GET', '/_ringside/v1/server', { host })).status, host).toBe(p === port ? 200 : 404)
      }
    }
  })

  test('an empty cross-site POST /_ringside/v1/reset (a form on any page) is refused and wipes nothing', async () => {
    const created = await fetch(`${server.url}crm/v3/objects/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ACCOUNT.privateAppToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ properties: { email: `kept-${port}@example.com` } }),
    })
    expect(created.status).toBe(201)
    const before = await (await fetch(`${server.url}_ringside/v1/export`)).json()
    const attempts: Array<Record<string, string>> = [
      { origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site', 'content-type': 'application/x-www-form-urlencoded' },
      { origin: 'null', 'content-type': 'text/plain' },
      { 'sec-fetch-site': 'cross-site' },
      // A form on Ringside's own page is still a simple request: refused too.
      { origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' },
    ]
    for (const headers of attempts) {
      const answer = await raw(port, 'POST', '/_ringside/v1/reset', { host: `127.0.0.1:${port}`, ...headers }, '')
      expect(answer.status, JSON.stringify(headers)).toBe(403)
      expect(json(answer).category).toBe('FORBIDDEN')
    }
    for (const path of ['/_ringside/v1/import', '/_ringside/v1/timeline/preview', '/_ringside/v1/oauth/authorize']) {
      const answer = await raw(port, 'POST', path, { host: `127.0.0.1:${port}`, origin: 'https://attacker.example', 'content-type': 'text/plain' }, '{}')
      expect(answer.status, path).toBe(403)
    }
    const after = await (await fetch(`${server.url}_ringside/v1/export`)).json()
    expect(after.tables).toEqual(before.tables)
    // Ringside's own pages send JSON or an x-ringside-* header, which needs a preflight no other site passes.
    const own = await raw(port, 'POST', '/_ringside/v1/timeline/preview', { host: `localhost:${port}`, origin: `http://localhost:${port}`, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }, '{"headerTemplate":"ok"}')
    expect(own.status).toBe(200)
  })

  test('the data folder and dotfiles are never served, on either origin; traversal is 404', async () => {
    const name = dataDir.slice(REPO.length)
    const paths = [
      `${name}/snapshot.json`,
      `${name}/snapshot.json?import`,
      `${name}/journal.jsonl`,
      `/@fs${dataDir}/snapshot.json`,
      `/@fs${dataDir}/snapshot.json?import`,
      '/.git/config',
      '/%2egit/config',
      '/widget/..%2f..%2fpackage.json',
    ]
    for (const p of [port, port + 1]) {
      for (const path of paths) {
        const answer = await raw(p, 'GET', path, { host: `127.0.0.1:${p}` })
        expect(answer.status, `${p}${path}`).toBe(404)
        expect(answer.body).not.toContain(ACCOUNT.clientSecret)
      }
    }
    expect((await raw(port, 'GET', '/', { host: `127.0.0.1:${port}` })).status).toBe(200)
  })

  test('a Content-Length over the limit is refused with 413 before the body is sent: the routes\' 12 MB, the import\'s own budget', async () => {
    for (const [path, length] of [
      ['/crm/v3/objects/contacts', MAX_BODY_BYTES + 1],
      ['/_ringside/v1/reset', 200 * 1024 * 1024],
      ['/_ringside/v1/import', IMPORT_LIMITS.bytes + 1],
    ] as const) {
      const answer = await raw(port, 'POST', path, { host: `127.0.0.1:${port}`, 'content-type': 'application/json', 'content-length': length })
      expect(answer.status, path).toBe(413)
      expect(json(answer).category, path).toBe('PAYLOAD_TOO_LARGE')
    }
  })

  test('an answer given before the body arrived whole says Connection: close, so a keep-alive client opens a new connection for its next request', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const send = (method: string, path: string, body?: string) =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const headers = { host: `127.0.0.1:${port}`, authorization: 'Bearer pat-local', 'content-type': 'application/json', ...(body !== undefined && { 'content-length': Buffer.byteLength(body) }) }
        const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
          res.resume()
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }))
        })
        req.on('error', reject)
        req.end(body)
      })
    try {
      // The import refuses this at its first row, long before the 300 kB have arrived.
      const deep = `${'{"a":'.repeat(60_000)}1${'}'.repeat(60_000)}`
      expect(await send('POST', '/_ringside/v1/import', deep)).toEqual({ status: 400, connection: 'close' })
      expect(await send('GET', '/crm/v3/objects/tickets/1')).toEqual({ status: 200, connection: 'keep-alive' })
      expect(await send('GET', '/crm/v3/objects/tickets/1')).toEqual({ status: 200, connection: 'keep-alive' })
    } finally {
      agent.destroy()
    }
  })

  test('an upgrade request nobody serves is answered and its socket closed, on both ports', async () => {
    for (const p of [port, port + 1]) {
      const answer = await upgrade(p)
      expect(answer.statusLine, String(p)).toMatch(/^HTTP\/1\.1 404/)
      expect(answer.closed).toBe(true)
    }
    expect((await upgrade(port, 'attacker.example')).statusLine).toMatch(/^HTTP\/1\.1 403/)
  })
})

describe('stopping', { timeout: 40_000 }, () => {
  afterAll(() => {
    killRunningServers()
    removeScratchDirs()
  })

  test('SIGTERM with a keep-alive connection, the change stream and an upgrade request open ends the process and releases the lock; a second server names the first', async () => {
    const port = await freePortPair()
    const dir = scratchDir('audit-stop')
    // With the pages (Vite), whose upgrade listener leaves a request it does not serve open.
    const run = runCli(['--port', String(port), '--data', dir])
    const origin = `http://127.0.0.1:${port}`
    await waitForServer(origin, run)

    const second = runCli(['--port', String(port + 2), '--no-pages', '--data', dir])
    expect(await second.exited).toBe(1)
    expect(second.output()).toMatch(new RegExp(`in use by another Ringside server \\(pid ${run.child.pid}\\)`))

    const stream = new AbortController()
    const changes = await fetch(`${origin}/_ringside/v1/changes`, { signal: stream.signal })
    const reader = changes.body!.getReader()
    await reader.read()
    const keepAlive = connect(port, '127.0.0.1', () => keepAlive.write(`GET /_ringside/v1/server HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`))
    keepAlive.on('error', () => {})
    const hanging = connect(port, '127.0.0.1', () => hanging.write(`GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: something\r\nConnection: Upgrade\r\n\r\n`))
    hanging.on('error', () => {})
    await new Promise((r) => setTimeout(r, 200))

    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
    expect(existsSync(join(dir, 'server.lock'))).toBe(false)
    stream.abort()
    keepAlive.destroy()
    hanging.destroy()
  })
})
