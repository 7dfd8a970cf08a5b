// Section "Bundle": gzip sizes of the production JavaScript each page loads.
// Starts from the page's HTML entry (module scripts and modulepreload links)
// and follows static imports between chunks; dynamic import() targets are
// lazy and counted separately.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, posix, relative } from 'node:path'
import { gzipSync } from 'node:zlib'

const KB = 1024
const WIDGET_TARGET_KB = 50
const SDK_WIDGET_TARGET_KB = 12

const HTML_SCRIPT = /<script\b[^>]*\bsrc="([^"]+\.js)"[^>]*>/g
const HTML_PRELOAD = /<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+\.js)"[^>]*>/g
const STATIC_IMPORT = /\b(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["'](\.{1,2}\/[^"']+?\.js)["']/g
const DYNAMIC_IMPORT = /\bimport\(\s*["'](\.{1,2}\/[^"']+?\.js)["']\s*\)/g
const MAPPED_DEPS = /["'](assets\/[^"']+?\.js)["']/g

function matches(text, pattern) {
  return [...text.matchAll(pattern)].map((m) => m[1])
}

function gzipSize(file) {
  return gzipSync(readFileSync(file), { level: 9 }).length
}

/** Files (absolute) a page loads eagerly, and the lazy ones it may import. */
export function pageChunks(dist, htmlFile) {
  const html = readFileSync(join(dist, htmlFile), 'utf8')
  const toFile = (url) => join(dist, url.startsWith('/') ? url.slice(1) : posix.join(posix.dirname(htmlFile), url))
  const eager = new Set()
  const lazy = new Set()
  const queue = [...matches(html, HTML_SCRIPT), ...matches(html, HTML_PRELOAD)].map(toFile)
  while (queue.length > 0) {
    const file = queue.shift()
    if (eager.has(file) || !existsSync(file)) continue
    eager.add(file)
    const code = readFileSync(file, 'utf8')
    for (const spec of matches(code, STATIC_IMPORT)) queue.push(join(dirname(file), spec))
    for (const spec of matches(code, DYNAMIC_IMPORT)) lazy.add(join(dirname(file), spec))
    // Vite's preload helper lists the dependencies of lazy chunks as "assets/x.js".
    if (code.includes('__vite__mapDeps')) for (const spec of matches(code, MAPPED_DEPS)) lazy.add(join(dist, spec))
  }
  for (const file of eager) lazy.delete(file)
  return { eager: [...eager], lazy: [...lazy].filter((file) => existsSync(file)) }
}

/** `key` names the figure in reports/bench.json (bundle.gzip_bytes.<key>); `dir` is the build (the test pages are built apart). */
const PAGES = [
  { name: 'harness', key: 'harness', dir: 'dist', html: 'index.html' },
  { name: 'widget', key: 'widget', dir: 'dist', html: 'widget/index.html', targetKb: WIDGET_TARGET_KB },
  { name: 'sdk-widget fixture (our widget SDK alone)', key: 'sdk_widget', dir: 'dist-test', html: 'e2e/fixtures/sdk-widget/index.html', targetKb: SDK_WIDGET_TARGET_KB },
  { name: 'sdk-host fixture (our host SDK + fixture glue)', key: 'sdk_host', dir: 'dist-test', html: 'e2e/fixtures/sdk-host/index.html' },
  { name: 'npm-widget fixture (npm package)', key: 'npm_widget', dir: 'dist-test', html: 'e2e/fixtures/npm-widget/index.html' },
]

const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`

export async function bundleSection({ root }) {
  const rows = []
  const gzipBytes = {}
  const notes = ['gzip level 9 (node:zlib) of each chunk, summed; eager = entry + static imports, lazy = dynamic import() only.']
  for (const page of PAGES) {
    const dist = join(root, page.dir)
    if (!existsSync(join(dist, page.html))) {
      rows.push([page.name, `page missing from ${page.dir}/`, '', '', '', ''])
      continue
    }
    const { eager, lazy } = pageChunks(dist, page.html)
    const eagerRaw = eager.reduce((sum, file) => sum + readFileSync(file).length, 0)
    const eagerGzip = eager.reduce((sum, file) => sum + gzipSize(file), 0)
    const lazyGzip = lazy.reduce((sum, file) => sum + gzipSize(file), 0)
    gzipBytes[page.key] = eagerGzip
    const verdict = page.targetKb === undefined ? '' : eagerGzip <= page.targetKb * KB ? `≤ ${page.targetKb} KB: met` : `≤ ${page.targetKb} KB: MISSED by ${kb(eagerGzip - page.targetKb * KB)}`
    rows.push([page.name, String(eager.length), kb(eagerRaw), kb(eagerGzip), lazy.length ? kb(lazyGzip) : '-', verdict])
    const sized = eager.map((file) => ({ file, gzip: gzipSize(file) })).sort((a, b) => b.gzip - a.gzip)
    notes.push(`${page.name}: ${sized.map(({ file, gzip }) => `${relative(dist, file)} ${kb(gzip)}`).join(', ')}`)
  }
  return {
    title: 'Bundle (production JS per page, from dist/ and the test pages in dist-test/)',
    header: ['page', 'chunks', 'eager raw', 'eager gzip', 'lazy gzip', 'target'],
    rows,
    notes,
    results: { gzipBytes },
  }
}
