#!/usr/bin/env node
// npm run bench: one run of every benchmark section, printed as tables.
// Builds dist/ first when it is missing or older than the sources, serves it
// with tools/test/serve-dist.mjs on the harness/widget/hostile ports, and drives
// Debian's Chromium with the same flags as playwright.config.ts.
// Options: --no-isolation (skip the COOP/COEP headers; timer clamped to 100 µs),
//          --no-build (use dist/ as it is),
//          --only <sections> (comma-separated names: sdk, bundle, api, http, package, ladder,
//            pageload, changes, import, server, firstcall, flood; the report keeps the other sections' figures from the last run),
//          --no-first-call (leave out the firstcall section: a fresh clone's npm ci takes a minute or more),
//          --server-count <n> (contacts of the server section's workload, default 100000),
//          --server-time <ms> (each timed phase of the server section, default 5000),
//          --server-root <checkout> (the server section starts that checkout's server, e.g. a branch's worktree),
//          --report <file> (where to write the JSON, default reports/bench.json).
// Only sdk, bundle, package, ladder, pageload and flood need dist/ (built first unless --no-build), and only sdk,
// ladder and pageload Chromium; a run without them builds and launches nothing.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { chromium } from '@playwright/test'
import { changesFanoutSection } from './changes-fanout.mjs'
import { apiThroughputSection } from './api-section.mjs'
import { ensureBuild } from './build.mjs'
import { bundleSection } from './bundle-section.mjs'
import { httpSection } from './http-section.mjs'
import { importSection } from './import-section.mjs'
import { ladderSection } from './ladder-section.mjs'
import { packageSection } from './package-section.mjs'
import { pageLoadSection } from './pageload-section.mjs'
import { profileOurSdk } from './profile.mjs'
import { hostSideFigures, sdkSection } from './sdk-section.mjs'
import { DEFAULT_PHASE_MS, DEFAULT_SERVER_COUNT, serverSection } from './server-section.mjs'
import { benchOrigins, startBenchServers } from './server.mjs'
import { printSection } from './table.mjs'
import { DEFAULT_PORTS } from '../../shared/ports.mjs'
import { firstCallSection } from './first-call-section.mjs'
import { freePortPair } from '../../emulator/testing/free-ports.mjs'

const root = resolve(import.meta.dirname, '../..')
// E2E_PORT moves the block (harness, +1 widget, +2 hostile, +3 and +4 the test pages), as e2e/origins.ts does.
const BASE_PORT = Number(process.env.E2E_PORT ?? DEFAULT_PORTS.e2e)
if (!Number.isInteger(BASE_PORT) || BASE_PORT < 1024 || BASE_PORT > 65533) throw new Error(`E2E_PORT must be a port number, got ${process.env.E2E_PORT}`)
const ORIGINS = benchOrigins(BASE_PORT)
/** Built files the sections need, relative to the repository: the product build and the test pages. */
const REQUIRED_PAGES = [
  ...['index.html', 'widget/index.html', 'sdk/calling-extensions.js'].map((f) => `dist/${f}`),
  ...['sdk-host', 'sdk-widget', 'plain-host', 'npm-widget'].map((f) => `dist-test/e2e/fixtures/${f}/index.html`),
]

/** $CHROMIUM_PATH, else Debian's /usr/bin/chromium (same rule as e2e/origins.ts). */
function chromiumPath() {
  const fromEnv = process.env.CHROMIUM_PATH
  return fromEnv && existsSync(fromEnv) ? fromEnv : '/usr/bin/chromium'
}

/** The Chromium flags every run uses (kit/browser/browser-args.ts), read from that file so they never drift. */
function playwrightLaunchArgs() {
  const source = readFileSync(join(root, 'kit', 'browser', 'browser-args.ts'), 'utf8')
  const block = /BROWSER_ARGS\s*=\s*\[([\s\S]*?)\]/.exec(source)
  const args = block ? [...block[1].matchAll(/'([^']+)'|"([^"]+)"/g)].map((m) => m[1] ?? m[2]) : []
  if (args.length === 0) throw new Error('could not read BROWSER_ARGS from kit/browser/browser-args.ts')
  return args
}

/**
 * The sections, in print order: `run(context)` resolves to { title, header,
 * rows, notes, results }; `dist` says it reads the build, `browser` that it needs Chromium too.
 */
const SECTIONS = [
  { name: 'sdk', dist: true, browser: true, run: ({ browser, isolation }) => sdkSection({ browser, origins: ORIGINS, isolation, profile: profileOurSdk }) },
  { name: 'bundle', dist: true, run: () => bundleSection({ root }) },
  { name: 'api', run: () => apiThroughputSection({ root }) },
  { name: 'http', run: () => httpSection({ root }) },
  { name: 'package', dist: true, run: () => packageSection({ root }) },
  { name: 'ladder', dist: true, browser: true, run: ({ browser }) => ladderSection({ root, browser, origins: ORIGINS }) },
  { name: 'pageload', dist: true, browser: true, run: ({ browser }) => pageLoadSection({ browser }) },
  { name: 'changes', run: () => changesFanoutSection() },
  { name: 'import', run: () => importSection({ root, log: (step) => console.log(`  … ${step}`) }) },
  { name: 'server', run: ({ options }) => serverSection({ root: options.serverRoot, count: options.serverCount, phaseMs: options.serverTime, log: (step) => console.log(`  … ${step}`) }) },
  {
    name: 'firstcall',
    run: async () =>
      firstCallSection({
        root,
        port: await freePortPair(),
        launch: () => chromium.launch({ executablePath: chromiumPath(), args: playwrightLaunchArgs() }),
        log: (step) => console.log(`  … ${step}`),
      }),
  },
]
const SECTION_NAMES = [...SECTIONS.map((s) => s.name), 'flood']

/**
 * reports/bench.json: the figures as numbers, keyed
 * sdk.roundtrip.<muted|unmuted>.<p50_us|p99_us>.<pair>, sdk.handshake.<mode>.p50_ms.<pair>,
 * sdk.host_side (tools/bench/sdk-section.mjs hostSideFigures: the host side's targets, muted, with the baselines),
 * bundle.gzip_bytes.<page>, ladder.* (tools/bench/ladder-section.mjs: the ladder of 10,000 messages,
 * node.<step>_ms and browser.<step>_ms), server.* (tools/bench/server-section.mjs: the store at 100k
 * contacts, each figure with its raw baseline and `met`), import.* (tools/bench/import-section.mjs: a 100k-contact export
 * through HTTP: its size, import time, peak RSS growth), pageload.<record|list>.* (tools/bench/pageload-section.mjs:
 * one harness load in server mode, medians), first_call.* (tools/bench/first-call-section.mjs: clone, npm ci, npm start,
 * the first call and its read-back, each in ms, the total against its 60 s target). harness.flood_10k_ms comes from the
 * security journey's flood, which main() runs with FLOOD_REPEATS=10 (reports/flood.json).
 * A run of some sections only (--only) keeps the other sections' keys of the file it replaces.
 */
function writeReport(file, results, ranFlood, loadAtStart, partial) {
  const previous = partial && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}
  const report = { ...previous, generated: new Date().toISOString(), load_average_start: loadavg().length ? Number(loadAtStart.split(' ')[0]) : null }
  if (results.sdk) {
    report.sdk = { roundtrip: {}, handshake: {} }
    for (const [key, x] of Object.entries(results.sdk)) {
      const [mode, pair] = key.split('.')
      if (x.p50Us !== undefined) {
        // A handshake-only pair (npmhost) has no round trips.
        const rt = (report.sdk.roundtrip[mode] ??= { p50_us: {}, p99_us: {} })
        rt.p50_us[pair] = Math.round(x.p50Us * 10) / 10
        rt.p99_us[pair] = Math.round(x.p99Us * 10) / 10
      }
      const hs = (report.sdk.handshake[mode] ??= { p50_ms: {} })
      hs.p50_ms[pair] = Math.round(x.handshakeP50Ms * 100) / 100
    }
    report.sdk.host_side = hostSideFigures(results.sdk)
  }
  if (results.bundle) report.bundle = { gzip_bytes: results.bundle.gzipBytes }
  const flood = join(root, 'reports', 'flood.json')
  if (ranFlood && existsSync(flood)) {
    const { flood_ms, messages } = JSON.parse(readFileSync(flood, 'utf8'))
    if (messages === 10_000) report.harness = { flood_10k_ms: flood_ms }
  }
  if (results.ladder) report.ladder = results.ladder
  if (results.pageload) report.pageload = results.pageload
  if (results.changes) report.changes = results.changes
  if (results.server) report.server = results.server
  if (results.firstcall) report.first_call = results.firstcall
  mkdirSync(resolve(file, '..'), { recursive: true })
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`)
  console.log(`\nwrote ${file}`)
}

/**
 * The harness under a flood of 10,000 malformed widget messages: the security
 * journey's flood test, run by Playwright with FLOOD_REPEATS=10 (it starts its
 * own servers, so it runs after the bench's server has stopped). It writes
 * reports/flood.json, which writeReport reads.
 */
function floodSection() {
  console.log('\n## Harness under a flood (10,000 malformed widget messages, inspector open)')
  const run = spawnSync('npx', ['playwright', 'test', 'e2e/security.spec.ts', '-g', 'flood of malformed', '--reporter=line'], {
    cwd: root,
    env: { ...process.env, FLOOD_REPEATS: '10' },
    encoding: 'utf8',
  })
  const line = `${run.stdout}`.split('\n').find((l) => l.startsWith('harness: '))
  console.log(run.status === 0 && line ? line : `the flood run failed (exit ${run.status}):\n${run.stdout}${run.stderr}`)
}

function parseOptions() {
  const { values } = parseArgs({
    options: {
      'no-isolation': { type: 'boolean', default: false },
      'no-build': { type: 'boolean', default: false },
      'no-first-call': { type: 'boolean', default: false },
      only: { type: 'string' },
      'server-count': { type: 'string', default: String(DEFAULT_SERVER_COUNT) },
      'server-time': { type: 'string', default: String(DEFAULT_PHASE_MS) },
      'server-root': { type: 'string', default: root },
      report: { type: 'string', default: join(root, 'reports', 'bench.json') },
    },
  })
  const only = values.only?.split(',').map((name) => name.trim()).filter(Boolean)
  const unknown = only?.filter((name) => !SECTION_NAMES.includes(name)) ?? []
  if (unknown.length > 0) throw new Error(`--only: no section named ${unknown.join(', ')} (the sections: ${SECTION_NAMES.join(', ')})`)
  const whole = (name, min) => {
    const n = Number(values[name])
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number ≥ ${min}, got ${values[name]}`)
    return n
  }
  return {
    isolation: !values['no-isolation'],
    build: !values['no-build'],
    firstCall: !values['no-first-call'],
    only,
    serverCount: whole('server-count', 100),
    serverTime: whole('server-time', 100),
    serverRoot: resolve(values['server-root']),
    report: resolve(values.report),
  }
}

async function main() {
  const options = parseOptions()
  const runs = (name) => !options.only || options.only.includes(name)
  const sections = SECTIONS.filter((s) => runs(s.name) && (s.name !== 'firstcall' || options.firstCall))
  const needsBrowser = sections.some((s) => s.browser)
  // The flood section runs an e2e spec, which serves dist/ too.
  if ((sections.some((s) => s.dist) || runs('flood')) && options.build) ensureBuild(root, REQUIRED_PAGES)
  const server = needsBrowser ? await startBenchServers(root, BASE_PORT) : undefined
  const browser = needsBrowser ? await chromium.launch({ executablePath: chromiumPath(), args: playwrightLaunchArgs() }) : undefined
  const started = Date.now()
  const load = loadavg().map((x) => x.toFixed(2)).join(' ')
  console.log(
    `# Ringside benchmark (${new Date().toISOString()}, ${browser ? `Chromium ${browser.version()}, ` : ''}Node ${process.version}, ${cpus().length} CPUs, load average ${load}${server?.reused ? ', reusing the dist server already running' : ''})`,
  )
  if (options.serverRoot !== root && runs('server')) console.log(`(the server section measures the checkout ${options.serverRoot})`)
  const results = {}
  try {
    for (const section of sections) {
      const done = await section.run({ browser, isolation: options.isolation, options })
      printSection(done)
      results[section.name] = done.results
    }
  } finally {
    await browser?.close()
    await server?.stop()
  }
  if (runs('flood')) floodSection()
  writeReport(options.report, results, runs('flood'), load, Boolean(options.only))
  console.log(`\n(one run, ${((Date.now() - started) / 1000).toFixed(1)} s; load average at the end ${loadavg().map((x) => x.toFixed(2)).join(' ')})`)
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error)
  process.exit(1)
})
