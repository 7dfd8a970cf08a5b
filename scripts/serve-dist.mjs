#!/usr/bin/env node
// Serves the production build (dist/) on several ports at once, so the
// harness, the widget and a hostile test page each get an origin of their
// own. Usage: node scripts/serve-dist.mjs [port ...]   (default 4173 4174 4175)
// With SERVE_DIST_TLS_KEY and SERVE_DIST_TLS_CERT (PEM files) it serves https
// instead (the check-widget test plays a dev server with a self-signed certificate).
import { readFileSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { readFile, stat } from 'node:fs/promises'
import { extname, join, normalize, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..', 'dist')
const ports = process.argv.slice(2).map(Number).filter(Boolean)
if (ports.length === 0) ports.push(4173, 4174, 4175)

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
    const file = await resolveFile(url.pathname)
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
      return
    }
    const body = await readFile(file)
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
    })
    res.end(body)
  }).listen(port, '127.0.0.1', () => console.log(`serving dist on ${scheme}://127.0.0.1:${port}`))
}
