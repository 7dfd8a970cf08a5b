#!/usr/bin/env node
// npm run bench: one run of every benchmark section, printed as tables.
// Builds dist/ first when it is missing or older than the sources, serves it
// with scripts/serve-dist.mjs on the harness/widget/hostile ports, and drives
// Debian's Chromium with the same flags as playwright.config.ts.
// Options: --no-isolation (skip the COOP/COEP headers; timer clamped to 100 µs),
//          --no-build (use dist/ as it is).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium } from '@playwright/test'
import { apiThroughputSection } from '../bench/api-section.mjs'
import { ensureBuild } from '../bench/build.mjs'
import { bundleSection } from '../bench/bundle-section.mjs'
import { httpSection } from '../bench/http-section.mjs'
import { ladderSection } from '../bench/ladder-section.mjs'
import { packageSection } from '../bench/package-section.mjs'
import { profileOurSdk } from '../bench/profile.mjs'
import { hostSideFigures, sdkSection } from '../bench/sdk-section.mjs'
import { startDistServer } from '../bench/server.mjs'
import { printSection } from '../bench/table.mjs'

const root = resolve(import.meta.dirname, '..')
// E2E_PORT moves the block (harness, +1 widget, +2 hostile), as e2e/origins.ts does.
const BASE_PORT = Number(process.env.E2E_PORT ?? 4173)
if (!Number.isInteger(BASE_PORT) || BASE_PORT < 1024 || BASE_PORT > 65533) throw new Error(`E2E_PORT must be a port number, got ${process.env.E2E_PORT}`)
const PORTS = { harness: BASE_PORT, widget: BASE_PORT + 1, hostile: BASE_PORT + 2 }
const ORIGINS = Object.fromEntries(Object.entries(PORTS).map(([name, port]) => [name, `http://127.0.0.1:${port}`]))
const REQUIRED_PAGES = ['index.html', 'widget/index.html', 'sdk/calling-extensions.js', ...['sdk-host', 'sdk-widget', 'plain-host', 'npm-widget'].map((f) => `e2e/fixtures/${f}/index.html`)]

/** $CHROMIUM_PATH, else Debian's /usr/bin/chromium (same rule as e2e/origins.ts). */
function chromiumPath() {
  const fromEnv = process.env.CHROMIUM_PATH
  return fromEnv && existsSync(fromEnv) ? fromEnv : '/usr/bin/chromium'
}

/** The Chromium flags every run uses (package/browser-args.ts), read from that file so they never drift. */
function playwrightLaunchArgs() {
  const source = readFileSync(join(root, 'package', 'browser-args.ts'), 'utf8')
  const block = /BROWSER_ARGS\s*=\s*\[([\s\S]*?)\]/.exec(source)
  const args = block ? [...block[1].matchAll(/'([^']+)'|"([^"]+)"/g)].map((m) => m[1] ?? m[2]) : []
  if (args.length === 0) throw new Error('could not read BROWSER_ARGS from package/browser-args.ts')
  return args
}

/**
 * The sections, in print order. Each is `async (context) => section` where a
 * section is { title, header, rows, notes }.
 */
const SECTIONS = [
  async ({ browser, isolation }) => sdkSection({ browser, origins: ORIGINS, isolation, profile: profileOurSdk }),
  async () => bundleSection({ root }),
  async () => apiThroughputSection({ root }),
  async () => httpSection({ root }),
  async () => packageSection({ root }),
  async ({ browser }) => ladderSection({ root, browser, origins: ORIGINS }),
]

/**
 * reports/bench.json: the SDK and bundle figures as numbers, keyed
 * sdk.roundtrip.<muted|unmuted>.<p50_us|p99_us>.<pair>, sdk.handshake.<mode>.p50_ms.<pair>,
 * sdk.host_side (bench/sdk-section.mjs hostSideFigures: the host side's targets, muted, with the baselines),
 * bundle.gzip_bytes.<page>, ladder.* (bench/ladder-section.mjs: the ladder of 10,000 messages,
 * node.<step>_ms and browser.<step>_ms). harness.flood_10k_ms comes from the security journey's
 * flood, which main() runs with FLOOD_REPEATS=10 (reports/flood.json).
 */
function writeReport(sdk, bundle, ladder, loadAtStart) {
  const report = { generated: new Date().toISOString(), load_average_start: loadavg().length ? Number(loadAtStart.split(' ')[0]) : null, sdk: { roundtrip: {}, handshake: {} }, bundle: { gzip_bytes: bundle.gzipBytes } }
  for (const [key, x] of Object.entries(sdk)) {
    const [mode, pair] = key.split('.')
    const rt = (report.sdk.roundtrip[mode] ??= { p50_us: {}, p99_us: {} })
    rt.p50_us[pair] = Math.round(x.p50Us * 10) / 10
    rt.p99_us[pair] = Math.round(x.p99Us * 10) / 10
    const hs = (report.sdk.handshake[mode] ??= { p50_ms: {} })
    hs.p50_ms[pair] = Math.round(x.handshakeP50Ms * 100) / 100
  }
  report.sdk.host_side = hostSideFigures(sdk)
  const flood = join(root, 'reports', 'flood.json')
  if (existsSync(flood)) {
    const { flood_ms, messages } = JSON.parse(readFileSync(flood, 'utf8'))
    if (messages === 10_000) report.harness = { flood_10k_ms: flood_ms }
  }
  if (ladder) report.ladder = ladder
  mkdirSync(join(root, 'reports'), { recursive: true })
  writeFileSync(join(root, 'reports', 'bench.json'), `${JSON.stringify(report, null, 2)}\n`)
  console.log('\nwrote reports/bench.json')
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

async function main() {
  const isolation = !process.argv.includes('--no-isolation')
  if (!process.argv.includes('--no-build')) ensureBuild(root, REQUIRED_PAGES)
  const server = await startDistServer(root, Object.values(PORTS))
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: playwrightLaunchArgs() })
  const started = Date.now()
  const load = loadavg().map((x) => x.toFixed(2)).join(' ')
  console.log(`# Ringside benchmark (${new Date().toISOString()}, Chromium ${browser.version()}, Node ${process.version}, ${cpus().length} CPUs, load average ${load}${server.reused ? ', reusing the dist server already running' : ''})`)
  const results = []
  try {
    for (const section of SECTIONS) {
      const done = await section({ browser, isolation })
      printSection(done)
      results.push(done.results)
    }
  } finally {
    await browser.close()
    await server.stop()
  }
  floodSection()
  writeReport(results[0], results[1], results[SECTIONS.length - 1], load)
  console.log(`\n(one run, ${((Date.now() - started) / 1000).toFixed(1)} s; load average at the end ${loadavg().map((x) => x.toFixed(2)).join(' ')})`)
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error)
  process.exit(1)
})
