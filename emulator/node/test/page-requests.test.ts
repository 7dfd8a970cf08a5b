/**
 * The page servers' rule for browser requests (emulator/node/guard.ts), walked over
 * every kind of path they answer, in Vite mode and --dist, on both ports:
 * a request that is not a navigation comes from Ringside's own origin, a
 * navigation from elsewhere opens only a product page, and the SDK's routes
 * and the API keep their own rules. Also: every answer has a Content-Type and
 * nosniff, the own-origin table, and the bound on slow headers.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { connect } from 'node:net'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { isApiPath } from '../../core/http/api-paths.ts'
import { RequestGuard } from '../guard.ts'
import { pageAt, PRODUCT_PAGES } from '../pages/page-policy.ts'
import { isSdkPath } from '../pages/sdk-cdn.ts'
import { startRingside, type RingsideServer } from '../server.ts'
import { freePortPair, REPO } from './support.ts'

interface Answer {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

function get(port: number, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers }, agent: false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

/** The kinds of request a browser (or another client) sends, and whether the rule lets each through to any path. */
const KINDS = {
  'cross-site subresource (<img>, <script>)': { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' }, own: false, navigation: false },
  'cross-site fetch': { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty', origin: 'http://localhost:3000' }, own: false, navigation: false },
  'same-site subresource (another port)': { headers: { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'script' }, own: false, navigation: false },
  'cross-site navigation': { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' }, own: false, navigation: true },
  'same-site frame': { headers: { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' }, own: false, navigation: true },
  'same-origin fetch': { headers: { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' }, own: true, navigation: false },
  'same-origin module worker': { headers: { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'same-origin', 'sec-fetch-dest': 'worker' }, own: true, navigation: false },
  'address bar (none)': { headers: { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' }, own: true, navigation: true },
  'no Sec-Fetch headers (curl, a backend)': { headers: {}, own: true, navigation: false },
  "Node's fetch (Sec-Fetch-Mode alone)": { headers: { 'sec-fetch-mode': 'cors' }, own: true, navigation: false },
} as const

const SDK_PATHS = ['/sdk/latest/calling-extensions.js', '/sdk/npm/@hubspot/calling-extensions-sdk@latest/dist/main.js', '/sdk/0.0.0/calling-extensions.js']
const API_PATHS = ['/_ringside/v1/server', '/crm/v3/objects/contacts', '/oauth/v1/token']
const PAGE_PATHS = PRODUCT_PAGES.flatMap((page) => [page.path, `/${page.file}`])
/** Vite's own endpoints and prefixes, and the repository's files it serves. No `file=`: an allowed request must not launch an editor. */
const VITE_PATHS = [
  '/__open-in-editor',
  `/@fs${REPO}/package.json`,
  '/@fs/etc/passwd',
  '/@vite/client',
  '/@vite/env',
  '/@id/react',
  '/@react-refresh',
  '/node_modules/react/package.json',
  '/node_modules/.vite/deps/react.js',
  '/node_modules/vite/bin/unknown.php',
  '/widget/main.tsx',
  '/emulator/core/http/auth.ts',
  '/host-harness/harness.css',
  '/package.json',
  '/vite.config.ts',
  '/README.md',
]
const distAssets = () => (existsSync(join(REPO, 'dist', 'assets')) ? readdirSync(join(REPO, 'dist', 'assets')).slice(0, 6).map((name) => `/assets/${name}`) : [])
const DIST_PATHS = ['/mockServiceWorker.js', '/_headers', '/sdk/calling-extensions.js', '/nothing-here.php']

/** Whether the guard refused it (not Vite's or the API's own 403). */
const blocked = (answer: Answer) => answer.status === 403 && answer.body.includes('"category":"FORBIDDEN"') && answer.body.includes('Blocked')

function walk(server: () => RingsideServer, paths: () => string[]): void {
  for (const [kind, { headers, own, navigation }] of Object.entries(KINDS)) {
    test(`${kind}: ${own ? 'served everywhere' : navigation ? 'opens product pages only' : 'loads the SDK and the API only'}; every answer typed`, async () => {
      const { port } = server()
      for (const p of [port, port + 1]) {
        for (const path of paths()) {
          const answer = await get(p, path, headers)
          const where = `${kind} ${p === port ? 'harness' : 'widget'} ${path} → ${answer.status} ${answer.body.slice(0, 120)}`
          const exempt = isSdkPath(path) || isApiPath(path) || own || (navigation && pageAt(path) !== null)
          expect(blocked(answer), where).toBe(!exempt)
          if (blocked(answer)) expect(answer.headers['content-type'], where).toMatch(/^application\/json/)
          expect(answer.headers['content-type'], where).toBeTruthy()
          if (!isApiPath(path)) expect(answer.headers['x-content-type-options'], where).toBe('nosniff')
        }
      }
    })
  }
}

/** A server with `pages` for the enclosing describe block. */
function serverFor(pages: 'vite' | 'dist'): () => RingsideServer {
  let server: RingsideServer
  beforeAll(async () => {
    server = await startRingside({ port: await freePortPair(), data: null, pages })
  }, 60_000)
  afterAll(() => server?.close())
  return () => server
}

describe('page requests from other origins', { timeout: 60_000 }, () => {
  describe('Vite mode', () => {
    const running = serverFor('vite')
    walk(running, () => [...VITE_PATHS, ...PAGE_PATHS, ...SDK_PATHS, ...API_PATHS])

    test("Vite's CORS is off: a localhost page's fetch gets no Access-Control-Allow-Origin, even where it is served", async () => {
      const answer = await get(running().port, '/package.json', { origin: 'http://localhost:3000' })
      expect(answer.status).toBe(200)
      expect(answer.headers['access-control-allow-origin']).toBeUndefined()
    })

    test('a cross-site WebSocket to the HMR endpoint is refused on both ports, never upgraded', async () => {
      const { port } = running()
      for (const p of [port, port + 1]) {
        const statusLine = await new Promise<string>((resolve) => {
          const socket = connect(p, '127.0.0.1', () =>
            socket.write(
              `GET /?token=x HTTP/1.1\r\nHost: 127.0.0.1:${p}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Protocol: vite-hmr\r\n` +
                `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: websocket\r\nOrigin: https://attacker.example\r\n\r\n`,
            ),
          )
          let text = ''
          socket.on('data', (chunk) => (text += chunk))
          socket.on('close', () => resolve(text.split('\r\n')[0] ?? ''))
          socket.on('error', () => {})
        })
        // The guard refuses it on the widget port; on the harness port Vite's own listener answers first, and refuses a socket without its token (kept in /@vite/client, which other origins cannot read).
        expect(statusLine).toBe(p === port ? 'HTTP/1.1 400 Bad Request' : 'HTTP/1.1 403 Forbidden')
      }
    })
  })

  describe.runIf(existsSync(join(REPO, 'dist', 'index.html')))('--dist', () => {
    walk(serverFor('dist'), () => [...distAssets(), ...DIST_PATHS, ...PAGE_PATHS, ...SDK_PATHS, ...API_PATHS])
  })
})

describe("Ringside's own origins", () => {
  const guard = new RequestGuard({ host: '127.0.0.1', allowedHosts: ['crm.test', '.dev.test'], port: 7120, corsOrigins: ['https://app.example'] })
  test.each([
    ['http://127.0.0.1:7120', true],
    ['http://127.0.0.1:7121', true],
    ['http://127.9.9.9:7120', true],
    ['http://[::1]:7121', true],
    ['http://localhost:7120', true],
    ['http://widget.localhost:7121', true],
    ['http://crm.test:7120', true],
    ['http://a.dev.test:7121', true],
    ['https://app.example', true],
    ['http://203.0.113.7:7120', false],
    ['http://10.0.0.2:7121', false],
    ['http://[2001:db8::1]:7120', false],
    ['http://127.0.0.1:7122', false],
    ['https://127.0.0.1:7120', false],
    ['http://localhost.attacker.example:7120', false],
    ['http://crm.test.attacker.example:7120', false],
    ['null', false],
  ])('%s is own: %s', (origin, own) => {
    expect(guard.isOwnOrigin(origin)).toBe(own)
  })

  test('the Host check still serves any IP address (no rebinding needs one), but the --host address is an own origin', () => {
    expect(guard.checkHost({ host: '203.0.113.7:7120' })).toBeNull()
    const lan = new RequestGuard({ host: '192.168.1.20', allowedHosts: [], port: 7120, corsOrigins: [] })
    expect(lan.isOwnOrigin('http://192.168.1.20:7120')).toBe(true)
    expect(lan.isOwnOrigin('http://192.168.1.21:7120')).toBe(false)
  })
})

describe('slow headers', () => {
  test('a request whose headers trickle in is answered 408 within the headers timeout plus the 1 s check, on both ports', { timeout: 20_000 }, async () => {
    const server = await startRingside({ port: await freePortPair(), data: null, pages: 'none', headersTimeoutMs: 500 })
    try {
      for (const p of [server.port, server.port + 1]) {
        const started = Date.now()
        const statusLine = await new Promise<string>((resolve) => {
          const socket = connect(p, '127.0.0.1', () => socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${p}\r\n`))
          const trickle = setInterval(() => socket.writable && socket.write('x-slow: 1\r\n'), 100)
          let text = ''
          socket.on('data', (chunk) => (text += chunk))
          socket.on('close', () => {
            clearInterval(trickle)
            resolve(text.split('\r\n')[0] ?? '')
          })
          socket.on('error', () => {})
        })
        expect(statusLine).toBe('HTTP/1.1 408 Request Timeout')
        // Node's default check (every 30 s) would answer after about 30 s; this proves the wait ends within its bound.
        expect(Date.now() - started).toBeLessThan(5_000)
      }
    } finally {
      await server.close()
    }
  })
})
