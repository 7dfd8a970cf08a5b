// Section "Package": what a widget developer downloads and installs. The
// tarball of `npm pack` (packed and unpacked size, file count), the size of
// node_modules after installing it alone into an empty project (its
// dependencies from the npm cache; @playwright/test, an optional peer, not
// included), and the SDK files served under /sdk/<version>/.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

const KB = 1024

function duBytes(path) {
  let total = 0
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name)
    if (entry.isDirectory()) total += duBytes(full)
    else if (entry.isFile()) total += statSync(full).size
  }
  return total
}

const mb = (bytes) => `${(bytes / KB / KB).toFixed(2)} MB`
const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`

export function packageSection({ root }) {
  const work = mkdtempSync(join(tmpdir(), 'ringside-bench-pack-'))
  try {
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }))
    const project = join(work, 'project')
    mkdirSync(project)
    writeFileSync(join(project, 'package.json'), '{"name":"bench-install","private":true}')
    const started = Date.now()
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--omit=peer', '--loglevel=error', join(work, packed.filename)], { cwd: project, stdio: 'ignore' })
    const installMs = Date.now() - started
    const modules = join(project, 'node_modules')
    const packages = readdirSync(modules).flatMap((name) => (name.startsWith('@') ? readdirSync(join(modules, name)) : name.startsWith('.') ? [] : [name])).length
    const sdk = ['calling-extensions.js', 'calling-extensions.umd.js'].map((file) => {
      const text = readFileSync(join(root, 'dist', 'sdk', file))
      return [`/sdk/${packed.version}/${file}`, kb(text.length), kb(gzipSync(text, { level: 9 }).length)]
    })
    return {
      title: 'Package (npm pack, and installed into an empty project)',
      header: ['what', 'size', 'detail'],
      rows: [
        ['packed tarball', mb(packed.size), `${packed.entryCount} files`],
        ['unpacked (the package alone)', mb(packed.unpackedSize), ''],
        ['installed (node_modules, with dependencies)', mb(duBytes(modules)), `${packages} top-level packages; install ${(installMs / 1000).toFixed(1)} s from the cache`],
        ...sdk.map(([url, raw, gzip]) => [url, raw, `${gzip} gzip`]),
      ],
      notes: [],
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
