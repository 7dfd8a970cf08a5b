// The storage engine for server mode, decided by measurement: the project's
// own journal (emulator/node/storage/disk-storage.ts, wired to the Database as the server wires
// it) against embedded engines, SQLite in WAL mode through better-sqlite3
// 12.x and LMDB through lmdb 3.x, on the same workload, in one run:
//   - the commit rows of the real API: captured once from an in-process
//     service (single contact creates, and batch/create of the 100k workload);
//   - every engine sits behind the same Database commit hook, so all get the
//     same transactions: 16 concurrent writers of single creates, each
//     durable before it resolves (SQLite: synchronous=FULL, the commits that
//     wait together written in one transaction; LMDB: lmdb-js's own batching,
//     then `flushed`), next to a raw append+fsync baseline in the same
//     folder; then the bulk insert (8 writers of batches of 100);
//   - after a clean close, a new process loads the data back into a fresh
//     service: time to ready and its RSS; and the size on disk.
// Neither engine is a dependency of the project: each is loaded from a
// scratch folder (--sqlite-dir / RINGSIDE_SQLITE_DIR, --lmdb-dir /
// RINGSIDE_LMDB_DIR), installed there with npm (timed) when missing.
// better-sqlite3's prebuilt binary is downloaded from outside the npm
// registry; where that fails npm builds it from source with node-gyp and the
// machine's C++ compiler. lmdb's binaries come as npm packages.
//
//   node tools/bench/engine-compare.mjs --sqlite-dir <folder> --lmdb-dir <folder>
//        [--count 100000] [--time 5000] [--rounds 3] [--json <file>] [--project <checkout>]
// --project measures the journal and Database of another checkout of this
// repository (a branch's worktree) with this script.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { tsImport } from 'tsx/esm/api'
import { PAT } from '../../emulator/testing/ringside-server.mjs'
import { contactProperties } from '../../emulator/testing/big-export.mjs'
import { folderFiles, withFsyncBaseline } from './fsync-baseline.mjs'
import { loadWindow, percentile, printSection, sorted } from './table.mjs'
import { journalEngine, lmdbEngine, sqliteEngine } from './storage-engines.mjs'

const WRITERS = 16
const BULK_WRITERS = 8
const BATCH = 100
/** Single creates captured for the timed phase; a fast engine that writes them all starts over (the same rows again, as updates). */
const SINGLES = 20_000
const SQLITE_VERSION = '12'
const LMDB_VERSION = '3'

// ---------------------------------------------------------------- workload

/** The service and the journal of the checkout being measured (this repository unless --project names another). */
async function loadProject() {
  const from = (path) => pathToFileURL(join(options.project, path)).href
  const { createCrmService } = await tsImport(from('emulator/core/service.ts'), import.meta.url)
  const { DiskStorage } = await tsImport(from('emulator/node/storage/disk-storage.ts'), import.meta.url)
  return { createCrmService, DiskStorage }
}

/** The commit rows the API writes for `singles` single creates and then `count` contacts in batches of 100. */
async function captureWorkload(createCrmService, singles, count) {
  const service = createCrmService({ rateLimits: false })
  const commits = []
  service.db.onCommit((commit) => {
    commits.push(commit.rows)
  })
  const post = async (path, body) => {
    const response = await service.handle(
      new Request(new URL(path, 'http://bench.test'), { method: 'POST', headers: { authorization: `Bearer ${PAT}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    )
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`)
  }
  for (let i = 0; i < singles; i++) await post('/crm/v3/objects/contacts', { properties: { email: `single${i}@bench.example`, firstname: `Single${i}`, lastname: `Writer${i}` } })
  const single = commits.splice(0)
  for (let i = 0; i < count; i += BATCH) {
    const inputs = []
    for (let k = i; k < Math.min(count, i + BATCH); k++) inputs.push({ properties: contactProperties(k) })
    await post('/crm/v3/objects/contacts/batch/create', { inputs })
  }
  return { single, bulk: commits.splice(0) }
}

// ---------------------------------------------------------------- phases

/**
 * Apply commits' rows, each in a transaction of `db`, `writers` at a time,
 * from `cursor.next` on, until `stop()` (or the last commit, unless `cycle`:
 * then it starts over, writing the same rows again as updates); resolves to
 * each one's { start, ms }, also given to `ended` as it ends.
 */
async function write(db, commits, writers, { stop = () => false, ended = () => {}, cursor = { next: 0 }, cycle = false } = {}) {
  const samples = []
  async function writer() {
    while ((cycle || cursor.next < commits.length) && !stop()) {
      const rows = commits[cursor.next++ % commits.length]
      const start = performance.now()
      await db.transaction(() => db.applyRows(rows))
      const sample = { start, ms: performance.now() - start }
      samples.push(sample)
      ended(sample)
    }
  }
  await Promise.all(Array.from({ length: writers }, writer))
  return samples
}

/**
 * Every engine on its own fresh folder and service. The single-create phase
 * runs in `rounds` rounds, the engines taking turns in each (the disk of a
 * shared machine changes pace within seconds), each turn between two raw
 * fsync runs; then each engine's bulk insert, close, and load in a new process.
 */
async function measureEngines(project, engines, workload, phaseMs, rounds) {
  const open = []
  for (const engine of engines) {
    const dir = mkdtempSync(join(tmpdir(), 'ringside-engine-'))
    const service = project.createCrmService({ rateLimits: false })
    open.push({ engine, dir, service, close: await engine.open(project, service.db, dir, { fresh: true }), cursor: { next: 0 }, turns: [] })
  }
  const results = {}
  try {
    for (let round = 0; round < rounds; round++) {
      for (const entry of open) {
        console.log(`  round ${round + 1}/${rounds}: ${entry.engine.name}, ${WRITERS} writers`)
        const { raw, result } = await withFsyncBaseline(entry.dir, phaseMs, async () => {
          const window = loadWindow(phaseMs)
          const samples = await write(entry.service.db, workload.single, WRITERS, { stop: window.over, ended: window.ended, cursor: entry.cursor, cycle: true })
          return { samples, stats: window.stats(samples) }
        })
        entry.turns.push({ raw, ...result })
      }
    }
    for (const entry of open) {
      console.log(`  ${entry.engine.name}: bulk insert, close, load`)
      const bulkStarted = performance.now()
      await write(entry.service.db, workload.bulk, BULK_WRITERS)
      const bulkMs = performance.now() - bulkStarted
      const records = workload.bulk.reduce((n, rows) => n + rows.filter((r) => r.table === 'crm_contacts').length, 0)
      const closeStarted = performance.now()
      await entry.close()
      const closeMs = performance.now() - closeStarted
      const files = folderFiles(entry.dir)
      const latencies = sorted(entry.turns.flatMap((t) => t.stats.latencies))
      const ratios = entry.turns.map((t) => t.stats.perSecond / t.raw.perSecond)
      results[entry.engine.name] = {
        single: {
          per_s_by_round: entry.turns.map((t) => Math.round(t.stats.perSecond)),
          raw_fsync_per_s_by_round: entry.turns.map((t) => Math.round(t.raw.perSecond)),
          ratio_to_raw_fsync_by_round: ratios.map((r) => Math.round(r * 100) / 100),
          ratio_to_raw_fsync_median: median(ratios),
          per_s_median: median(entry.turns.map((t) => t.stats.perSecond)),
          p50_ms: percentile(latencies, 50),
          p99_ms: percentile(latencies, 99),
          writes: latencies.length,
        },
        bulk: { records, ms: Math.round(bulkMs), records_per_s: Math.round(records / (bulkMs / 1000)) },
        close_ms: Math.round(closeMs),
        bytes: Object.values(files).reduce((a, b) => a + b, 0),
        files,
        load: await loadInChild(entry.engine.kind, entry.dir),
      }
    }
  } finally {
    for (const entry of open) rmSync(entry.dir, { recursive: true, force: true })
  }
  return results
}

function median(values) {
  return percentile(sorted(values), 50)
}

/** Load `dir` with `engine` in a new process: time to ready and RSS after. */
function loadInChild(engine, dir) {
  return new Promise((resolvePromise, reject) => {
    const folders = ['--project', options.project, ...(options.sqliteDir ? ['--sqlite-dir', options.sqliteDir] : []), ...(options.lmdbDir ? ['--lmdb-dir', options.lmdbDir] : [])]
    const child = spawn(process.execPath, [import.meta.filename, '--load', engine, '--dir', dir, ...folders], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    child.on('exit', (code) => (code === 0 ? resolvePromise(JSON.parse(out)) : reject(new Error(`loading ${engine} failed (exit ${code})`))))
  })
}

function rssMb() {
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1])
  return Math.round(kb / 1024)
}

async function loadOnly(engineName, dir) {
  const started = performance.now()
  const project = await loadProject()
  const service = project.createCrmService({ rateLimits: false })
  const baseline = rssMb()
  const ready = performance.now()
  const engine = engineName === 'journal' ? journalEngine : engineName === 'lmdb' ? lmdbEngine(options.lmdbDir) : sqliteEngine(options.sqliteDir)
  const close = await engine.open(project, service.db, dir, { fresh: false })
  const loadMs = performance.now() - ready
  const rss = rssMb()
  const search = await service.handle(
    new Request('http://bench.test/crm/v3/objects/contacts/search', { method: 'POST', headers: { authorization: `Bearer ${PAT}`, 'content-type': 'application/json' }, body: '{"limit":1}' }),
  )
  const { total: contacts } = await search.json()
  await close()
  process.stdout.write(JSON.stringify({ load_ms: Math.round(loadMs), module_load_ms: Math.round(ready - started), rss_mb: rss, rss_empty_service_mb: baseline, contacts }))
}

// ---------------------------------------------------------------- install

/** `spec` (e.g. better-sqlite3@12) in the scratch folder `dir`: installed there, and timed, when missing. */
function ensureInstalled(dir, name, spec) {
  mkdirSync(dir, { recursive: true })
  if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return { installed: false }
  if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), '{"name":"engine-scratch","private":true}\n')
  console.log(`installing ${spec} in ${dir}…`)
  const started = performance.now()
  execFileSync('npm', ['install', spec, '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' })
  return { installed: true, install_ms: Math.round(performance.now() - started) }
}

// ---------------------------------------------------------------- main

const { values } = parseArgs({
  options: {
    'sqlite-dir': { type: 'string', default: process.env.RINGSIDE_SQLITE_DIR },
    'lmdb-dir': { type: 'string', default: process.env.RINGSIDE_LMDB_DIR },
    project: { type: 'string', default: resolve(import.meta.dirname, '../..') },
    count: { type: 'string', default: '100000' },
    time: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '3' },
    json: { type: 'string' },
    load: { type: 'string' },
    dir: { type: 'string' },
  },
})
const options = { sqliteDir: values['sqlite-dir'] && resolve(values['sqlite-dir']), lmdbDir: values['lmdb-dir'] && resolve(values['lmdb-dir']), project: resolve(values.project) }

async function main() {
  if (!options.sqliteDir && !options.lmdbDir) {
    console.error(
      'usage: node tools/bench/engine-compare.mjs [--sqlite-dir <scratch folder>] [--lmdb-dir <scratch folder>] [--count 100000] [--time 5000] [--rounds 3] [--json <file>] [--project <checkout>]\n' +
        '  (folders outside the repository, or RINGSIDE_SQLITE_DIR / RINGSIDE_LMDB_DIR; at least one)',
    )
    process.exit(2)
  }
  const count = Number(values.count)
  const phaseMs = Number(values.time)
  const rounds = Number(values.rounds)
  const install = {
    ...(options.sqliteDir && { sqlite: ensureInstalled(options.sqliteDir, 'better-sqlite3', `better-sqlite3@${SQLITE_VERSION}`) }),
    ...(options.lmdbDir && { lmdb: ensureInstalled(options.lmdbDir, 'lmdb', `lmdb@${LMDB_VERSION}`) }),
  }
  const project = await loadProject()
  const captureStarted = performance.now()
  const workload = await captureWorkload(project.createCrmService, SINGLES, count)
  console.log(`captured the workload's commits in ${((performance.now() - captureStarted) / 1000).toFixed(1)} s: ${workload.single.length} single creates, ${workload.bulk.length} batches`)
  const engines = [journalEngine, ...(options.sqliteDir ? [sqliteEngine(options.sqliteDir)] : []), ...(options.lmdbDir ? [lmdbEngine(options.lmdbDir)] : [])]
  const results = await measureEngines(project, engines, workload, phaseMs, rounds)
  const names = Object.keys(results)
  const cell = (f) => names.map((name) => f(results[name]))
  const ms = (x) => (Number.isNaN(x) ? 'n/a' : x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(1)} ms`)
  printSection({
    title: `Storage engine for server mode (${count.toLocaleString('en')} contacts)`,
    header: ['figure', ...names],
    rows: [
      [`${WRITERS} writers, single creates, by round`, ...cell((r) => r.single.per_s_by_round.map((x) => `${x.toLocaleString('en')}/s`).join(', '))],
      ['… raw append+fsync around each turn, same folder', ...cell((r) => r.single.raw_fsync_per_s_by_round.map((x) => `${x.toLocaleString('en')}/s`).join(', '))],
      ['… ratio to raw fsync, by round (median)', ...cell((r) => `${r.single.ratio_to_raw_fsync_by_round.map((x) => `${x.toFixed(2)}×`).join(', ')} (${r.single.ratio_to_raw_fsync_median.toFixed(2)}×)`)],
      ['… p50 / p99, all rounds', ...cell((r) => `${ms(r.single.p50_ms)} / ${ms(r.single.p99_ms)}`)],
      [`bulk insert, ${BULK_WRITERS} writers of ${BATCH}`, ...cell((r) => `${r.bulk.records_per_s.toLocaleString('en')} records/s (${ms(r.bulk.ms)})`)],
      ['clean close', ...cell((r) => ms(r.close_ms))],
      ['on disk', ...cell((r) => `${(r.bytes / 1024 / 1024).toFixed(1)} MB`)],
      ['load in a new process, to ready', ...cell((r) => `${ms(r.load.load_ms)} (${r.load.contacts.toLocaleString('en')} contacts)`)],
      ['RSS after the load (empty service)', ...cell((r) => `${r.load.rss_mb} MB (${r.load.rss_empty_service_mb} MB)`)],
    ],
    notes: [
      `Checkout measured: ${options.project === resolve(import.meta.dirname, '../..') ? 'this one' : options.project}.`,
      'Every engine behind the same Database commit hook, the same commit rows (captured from the API in process), in this process; no HTTP.',
      ...Object.entries(install).map(([name, x]) => (x.installed ? `${name} installed for this run in ${ms(x.install_ms)}.` : `${name} was already installed in its scratch folder.`)),
    ],
  })
  if (values.json) writeFileSync(values.json, `${JSON.stringify({ generated: new Date().toISOString(), count, phase_ms: phaseMs, rounds, install, engines: results }, null, 2)}\n`)
}

if (values.load) await loadOnly(values.load, resolve(values.dir))
else await main()
