#!/usr/bin/env node
// A static host for builds: serves dist/ (or --root folders, first match wins)
// on several ports at once, each an origin of its own.
// Usage: node tools/test/serve-dist.mjs [--root <dir>]... [--frame-ancestor <origin>]... [port ...]
//   (default root dist/, default ports: DEFAULT_PORTS.preview and the next two, shared/ports.mjs)
// It applies a root's headers file (`_headers`, the Netlify/Cloudflare Pages
// format the build writes: tools/build/static-headers.ts) as such a host
// would; --frame-ancestor adds an origin to every frame-ancestors that is not
// 'none' (a test's origin framing the built widget).
// `npm run preview` and the browser-only e2e origins serve dist/; the test
// origins of e2e/origins.ts serve the test pages (dist-test/).
// With SERVE_DIST_TLS_KEY and SERVE_DIST_TLS_CERT (PEM files) it serves https
// instead (the check-widget test plays a dev server with a self-signed certificate).
import { readFileSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { readFile, stat } from 'node:fs/promises'
import { basename, extname, join, normalize, relative, resolve } from 'node:path'
import { DEFAULT_PORTS } from '../../shared/ports.mjs'

const repo = resolve(import.meta.dirname, '../..')
const roots = []
const frameAncestors = []
const ports = []
for (let i = 2; i < process.argv.length; i++) {
  const arg = process.argv[i]
  if (arg === '--root') roots.push(resolve(repo, process.argv[++i] ?? ''))
  else if (arg === '--frame-ancestor') frameAncestors.push(new URL(process.argv[++i] ?? '').origin)
  else if (Number(arg)) ports.push(Number(arg))
  else {
    console.error(`serve-dist: unknown argument ${arg}`)
    process.exit(2)
  }
}
if (roots.length === 0) roots.push(resolve(repo, 'dist'))
if (ports.length === 0) ports.push(DEFAULT_PORTS.preview, DEFAULT_PORTS.preview + 1, DEFAULT_PORTS.preview + 2)

/** A root's `_headers` rules: [path pattern, [name, value][]]; a pattern ending in `*` matches a prefix. */
function headerRules(root) {
  let text
  try {
    text = readFileSync(join(root, '_headers'), 'utf8')
  } catch {
    return []
  }
  const rules = []
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue
    if (!/^\s/.test(line)) rules.push([line.trim(), []])
    else if (rules.length > 0) {
      const colon = line.indexOf(':')
      rules.at(-1)[1].push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()])
    }
  }
  return rules
}
const rules = new Map(roots.map((root) => [root, headerRules(root)]))

/** The headers of `pathname` from its root's rules, --frame-ancestor origins added. */
function headersFor(root, pathname) {
  const headers = {}
  for (const [pattern, pairs] of rules.get(root)) {
    const matches = pattern.endsWith('*') ? pathname.startsWith(pattern.slice(0, -1)) : pathname === pattern
    if (!matches) continue
    for (const [name, value] of pairs) headers[name] = value
  }
  const policy = headers['content-security-policy']
  if (policy && frameAncestors.length > 0) {
    headers['content-security-policy'] = policy.replace(/frame-ancestors ([^;]*)/, (all, sources) => (sources.trim() === "'none'" ? all : `frame-ancestors ${sources.trim()} ${frameAncestors.join(' ')}`))
  }
  return headers
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
}

async function resolveFile(pathname) {
  for (const root of roots) {
    const file = await resolveIn(root, pathname)
    if (file) return { root, file }
  }
  return null
}

async function resolveIn(root, pathname) {
  const clean = normalize(decodeURIComponent(pathname)).replace(/^(\.\.[/\\])+/, '')
  let file = join(root, clean)
  if (!file.startsWith(root)) return null
  try {
    const info = await stat(file)
    if (info.isDirectory()) file = join(file, 'index.html')
    await stat(file)
    return file
  } catch {
    // /widget -> /widget/index.html, /oauth/authorize -> index.html is not
    // done here: unknown paths are 404, like vite's appType 'mpa'.
    try {
      const asDir = join(file, 'index.html')
      await stat(asDir)
      return asDir
    } catch {
      return null
    }
  }
}

const tls =
  process.env.SERVE_DIST_TLS_KEY && process.env.SERVE_DIST_TLS_CERT
    ? { key: readFileSync(process.env.SERVE_DIST_TLS_KEY), cert: readFileSync(process.env.SERVE_DIST_TLS_CERT) }
    : null
const scheme = tls ? 'https' : 'http'
const createServer = (handler) => (tls ? createHttpsServer(tls, handler) : createHttpServer(handler))

for (const port of ports) {
  createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', `${scheme}://127.0.0.1:${port}`)
    let found = null
    try {
      found = await resolveFile(url.pathname)
    } catch {
      // an undecodable path
    }
    if (!found && url.pathname === '/') {
      // A root without an index page (the test pages): the origin still answers, so a readiness check sees it up.
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end(`serve-dist: ${roots.map((root) => relative(repo, root)).join(', ')}\n`)
      return
    }
    if (!found || basename(found.file) === '_headers') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
      return
    }
    const body = await readFile(found.file)
    res.writeHead(200, {
      ...headersFor(found.root, url.pathname),
      'content-type': TYPES[extname(found.file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
    })
    res.end(body)
  }).listen(port, '127.0.0.1', () => console.log(`serving ${roots.map((root) => root.slice(repo.length + 1)).join(', ')} on ${scheme}://127.0.0.1:${port}`))
}
