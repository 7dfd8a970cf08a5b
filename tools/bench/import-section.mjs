// Section "Import of a 100k-contact export": what export writes, import
// reads, at size. One `npm start --no-pages` server (A) takes an export of
// 100,000 contacts made by big-export.mjs, exports it again (the file a user
// would have), and a second server (B) imports that file over HTTP, streamed
// from disk, then exports it so that every record is compared. B runs with a
// young generation of 1 MB per semi-space, so its peak RSS growth (VmHWM,
// reset through /proc/<pid>/clear_refs) is what the import keeps. The
// figures are the file's size, B's import time and rate, and its peak RSS
// growth as a multiple of the file's size; nothing here asserts on time.
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { pathToFileURL } from 'node:url'
import { startRingsideServer } from './ringside-server.mjs'
import { writeContactExport } from './big-export.mjs'

export const DEFAULT_IMPORT_COUNT = 100_000

async function post(server, file) {
  const started = performance.now()
  const response = await fetch(`${server.baseUrl}/_ringside/v1/import`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Readable.toWeb(createReadStream(file)), duplex: 'half' })
  const body = await response.json()
  if (response.status !== 200) throw new Error(`the import was refused (${response.status}): ${JSON.stringify(body)}`)
  return { ms: performance.now() - started, body }
}

async function exportTo(server, file) {
  const response = await fetch(`${server.baseUrl}/_ringside/v1/export`)
  await pipeline(Readable.fromWeb(response.body), createWriteStream(file))
  return statSync(file).size
}

const withoutTime = (file) => readFileSync(file, 'utf8').replace(/"exportedAt":"[^"]*"/, '')

export async function importSection({ root, count = DEFAULT_IMPORT_COUNT, log = () => {} }) {
  const started = Date.now()
  const dir = mkdtempSync(join(tmpdir(), 'ringside-import-bench-'))
  const [a, b] = await Promise.all([
    startRingsideServer({ root, data: join(dir, 'a') }),
    startRingsideServer({ root, data: join(dir, 'b'), nodeArgs: ['--max-semi-space-size=1'] }),
  ])
  try {
    log(`writing an export of ${count.toLocaleString('en')} contacts`)
    const made = join(dir, 'made.json')
    const { contacts } = await writeContactExport({ baseUrl: a.baseUrl, file: made, count })
    log('importing it into server A, exporting it again')
    const first = await post(a, made)
    const exported = join(dir, 'exported.json')
    const bytes = await exportTo(a, exported)
    log('importing that export into server B')
    writeFileSync(`/proc/${b.pid}/clear_refs`, '5')
    const before = b.rssKb().rss
    const second = await post(b, exported)
    const growth = (b.rssKb().peak - before) * 1024
    const again = join(dir, 'again.json')
    await exportTo(b, again)
    const whole = second.body.counts.contacts === contacts && withoutTime(again) === withoutTime(exported)
    const mb = (n) => n / (1024 * 1024)
    const results = {
      contacts,
      file_mb: Math.round(mb(bytes) * 10) / 10,
      import_ms: Math.round(second.ms),
      import_mb_per_s: Math.round((mb(bytes) / (second.ms / 1000)) * 10) / 10,
      first_import_ms: Math.round(first.ms),
      peak_rss_growth_mb: Math.round(mb(growth) * 10) / 10,
      growth_per_file_byte: Math.round((growth / bytes) * 100) / 100,
      every_record: whole,
    }
    return {
      title: `Import of a ${count.toLocaleString('en')}-contact export (server mode, over HTTP)`,
      header: ['file', 'import (B)', 'rate', 'peak RSS growth (B)', 'per file byte', 'every record back'],
      rows: [[`${results.file_mb} MB`, `${(second.ms / 1000).toFixed(1)} s`, `${results.import_mb_per_s} MB/s`, `${results.peak_rss_growth_mb} MB`, `${results.growth_per_file_byte}×`, whole ? 'yes' : 'NO']],
      notes: [
        'The file is server A\'s own export (compact JSON), streamed from disk; B reads and checks it a row at a time (emulator/core/data/import-stream.ts) and writes its data folder\'s snapshot before answering.',
        'Peak RSS growth: VmHWM after the import minus VmRSS before it, with V8\'s young generation at 1 MB per semi-space; the rows themselves stay in memory as the database.',
        `${((Date.now() - started) / 1000).toFixed(1)} s incl. setup.`,
      ],
      results,
    }
  } finally {
    await Promise.all([a.stop(), b.stop()])
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { printSection } = await import('./table.mjs')
  const section = await importSection({ root: new URL('../..', import.meta.url).pathname, count: Number(process.argv[2] ?? DEFAULT_IMPORT_COUNT), log: (step) => console.log(`  … ${step}`) })
  printSection(section)
  console.log(JSON.stringify(section.results))
}
