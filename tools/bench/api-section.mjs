// Section "API handler throughput (Node)": runs the vitest benchmarks of the
// in-memory CRM service (tools/bench/api.bench.ts, tools/bench/timeline.bench.ts) in a
// child process and turns vitest's --outputJson report into one table.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const FILES = ['tools/bench/api.bench.ts', 'tools/bench/timeline.bench.ts']
const TIMEOUT_MS = 240_000
/** A get or list page that costs this much more at 100k than at 1k counts as growing. */
const GROWTH_LIMIT = 1.5

/** The rows, in print order: label and the benchmark name it comes from. */
const CASES = [
  ['ticket create (100k in the table)', 'POST /crm/v3/objects/tickets (create)'],
  ['ticket get (1k tickets)', 'GET /crm/v3/objects/tickets/{id} (1k tickets)'],
  ['ticket get (100k tickets)', 'GET /crm/v3/objects/tickets/{id} (100k tickets)'],
  ['batch read of 100 (100k tickets)', 'POST /crm/v3/objects/tickets/batch/read (100 ids)'],
  ['list page of 100 (1k tickets)', 'GET /crm/v3/objects/tickets?limit=100&after=… (1k tickets)'],
  ['list page of 100 (100k tickets)', 'GET /crm/v3/objects/tickets?limit=100&after=… (100k tickets)'],
  ['timeline event create', 'create event (POST /crm/v3/timeline/events)'],
  ['timeline event create + render header and detail', 'create event + render header and detail'],
  ['timeline batch create, 100 events', 'batch create, 100 events per request'],
  ['timeline renderer alone (header + detail)', 'render header + detail (Handlebars subset + Markdown)'],
  ['search, CONTAINS_TOKEN wildcard + EQ (10k tickets)', 'POST /crm/v3/objects/tickets/search (10k tickets)'],
  ['search, CONTAINS_TOKEN wildcard + EQ (100k tickets)', 'POST /crm/v3/objects/tickets/search (100k tickets)'],
  ['search *a*a*a*a*a*a*a*a*b, 60-char subject (was 116 s as a regex)', 'search CONTAINS_TOKEN *a*a*a*a*a*a*a*a*b (60-character subject)'],
]

/** Runs `npx vitest bench` on `files` (default FILES); resolves with the parsed --outputJson report. */
export async function runVitestBench(root, files = FILES) {
  const dir = mkdtempSync(join(tmpdir(), 'ringside-bench-'))
  const report = join(dir, 'vitest-bench.json')
  const args = ['vitest', 'bench', '--run', '--project', 'node', ...files, '--outputJson', report]
  try {
    const { code, output } = await new Promise((resolve, reject) => {
      // Plain output through NO_COLOR alone: Node warns in a process that has both it and FORCE_COLOR.
      const child = spawn('npx', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined } })
      let output = ''
      child.stdout.on('data', (chunk) => (output += chunk))
      child.stderr.on('data', (chunk) => (output += chunk))
      const timer = setTimeout(() => {
        child.kill()
        reject(new Error(`npx ${args.join(' ')} did not finish within ${TIMEOUT_MS / 1000} s`))
      }, TIMEOUT_MS)
      child.on('error', reject)
      child.on('close', (exitCode) => {
        clearTimeout(timer)
        resolve({ code: exitCode, output })
      })
    })
    if (code !== 0) throw new Error(`npx ${args.join(' ')} exited with ${code}:\n${output.slice(-4000)}`)
    return JSON.parse(readFileSync(report, 'utf8'))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** name → vitest's statistics of that benchmark (times in ms). */
export function byName(report) {
  const found = new Map()
  for (const file of report.files ?? []) {
    for (const group of file.groups ?? []) for (const bench of group.benchmarks ?? []) found.set(bench.name, bench)
  }
  return found
}

const ops = (hz) => Math.round(hz).toLocaleString('en')
const time = (ms) => (ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(1)} µs`)

/** "get: median 100k/1k = 1.04×: does not grow with the table" (or says it grows). */
function growthNote(label, small, large) {
  if (!small || !large) return `${label}: not measured`
  const ratio = large.median / small.median
  const verdict = ratio <= GROWTH_LIMIT ? 'does not grow with the table' : `GROWS with the table (limit ${GROWTH_LIMIT}×)`
  return `${label}: median ${time(small.median)} at 1k vs ${time(large.median)} at 100k tickets = ${ratio.toFixed(2)}× for 100× the rows: ${verdict}.`
}

export async function apiThroughputSection({ root }) {
  const started = Date.now()
  const results = byName(await runVitestBench(root))
  const rows = CASES.map(([label, name]) => {
    const b = results.get(name)
    if (!b) return [label, 'missing from the report', '', '', '', '', '']
    return [label, ops(b.hz), ops(1000 / b.median), time(b.median), time(b.p99), `±${b.rme.toFixed(1)}%`, b.sampleCount.toLocaleString('en')]
  })
  const get = (name) => results.get(name)
  const hostile = [...results.entries()].find(([name]) => name.startsWith('hostile request'))
  return {
    title: 'API handler throughput (Node)',
    header: ['case (through service.handle)', 'ops/s (mean)', 'ops/s (median)', 'median', 'p99', 'rme', 'samples'],
    rows,
    notes: [
      growthNote('ticket get', get(CASES[1][1]), get(CASES[2][1])),
      growthNote('list page of 100', get(CASES[4][1]), get(CASES[5][1])),
      hostile
        ? `worst-case hostile request (route fuzz mix: deep nesting, wildcard runs, prototype keys, bad percent-encoding, huge numbers, duplicate ids; ${hostile[0].replace(/^hostile request \((\d+) in turn\)$/, '$1 distinct requests, 3 per route, sent in turn')}): max ${time(hostile[1].max)}, p99 ${time(hostile[1].p99)}, median ${time(hostile[1].median)} over ${hostile[1].sampleCount.toLocaleString('en')} requests.`
        : 'worst-case hostile request: not measured',
      'ops/s (mean) is what vitest reports (1 / mean time; GC pauses and a busy machine pull it down); ops/s (median) = 1 / median time.',
      `npx vitest bench --run --project node ${FILES.join(' ')} (report read from --outputJson); ${((Date.now() - started) / 1000).toFixed(1)} s incl. building the 1k/100k tables.`,
    ],
  }
}
