#!/usr/bin/env node
// Widget readiness check: runs Ringside's protocol conformance suite against
// any calling widget, by URL, in the harness (no CRM account needed).
//
//   npm run check-widget -- <widget-url> [--driver <name|path>] [--sync-timeout <ms>] [--port <n>] [--name <text>]
//
// The widget must be reachable from this machine (e.g. your dev server on
// localhost). Prints the readiness report, writes JUnit XML to
// reports/widget-check.junit.xml (and the HTML report with traces to
// reports/widget-check-html/), and exits non-zero when a check fails.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')

const USAGE = `Usage: npm run check-widget -- <widget-url> [options]

Runs the protocol conformance suite against the calling widget at <widget-url>,
loaded cross-origin in the Ringside harness.

Options:
  --driver <name|path>   how to operate the widget: auto (default), ringside,
                         npm-fixture, none, or a path to your driver module
                         (see e2e/README.md). Without a driver, the steps that
                         need a user inside the widget are reported as skipped.
  --sync-timeout <ms>    how long the host waits for SYNC_ACK (default 10000)
  --port <n>             harness port; the widget fixtures use n+1, n+2
                         (default 4173)
  --name <text>          the widget's name in the report
  -h, --help             this text

Example:
  npm run check-widget -- http://localhost:5174/ --driver ./e2e/my-widget-driver.ts
`

function fail(message, code = 2) {
  process.stderr.write(`check-widget: ${message}\n`)
  process.exit(code)
}

function parseArgs(argv) {
  const options = { url: null, driver: 'auto', syncTimeout: null, port: null, name: null }
  const takeValue = (i, flag) => {
    const value = argv[i + 1]
    if (value === undefined || value.startsWith('--')) fail(`${flag} needs a value\n\n${USAGE}`)
    return value
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '-h' || arg === '--help') {
      process.stdout.write(USAGE)
      process.exit(0)
    } else if (arg === '--driver') options.driver = takeValue(i++, arg)
    else if (arg === '--sync-timeout') options.syncTimeout = takeValue(i++, arg)
    else if (arg === '--port') options.port = takeValue(i++, arg)
    else if (arg === '--name') options.name = takeValue(i++, arg)
    else if (arg.startsWith('--')) fail(`unknown option ${arg}\n\n${USAGE}`)
    else if (options.url === null) options.url = arg
    else fail(`unexpected argument ${arg}\n\n${USAGE}`)
  }
  return options
}

const options = parseArgs(process.argv.slice(2))
if (options.url === null) fail(`which widget? Give its URL.\n\n${USAGE}`)

let widgetUrl
try {
  widgetUrl = new URL(options.url)
} catch {
  fail(`${JSON.stringify(options.url)} is not a URL; give an absolute http(s) URL, e.g. http://localhost:5174/`)
}
if (widgetUrl.protocol !== 'http:' && widgetUrl.protocol !== 'https:') fail(`${widgetUrl.href} is not an http(s) URL`)

const port = options.port === null ? 4173 : Number(options.port)
if (!Number.isInteger(port) || port < 1024 || port > 65533) fail(`--port must be an integer between 1024 and 65533, got ${options.port}`)
if (options.syncTimeout !== null) {
  const ms = Number(options.syncTimeout)
  if (!Number.isFinite(ms) || ms < 200 || ms > 120_000) fail(`--sync-timeout must be between 200 and 120000 ms, got ${options.syncTimeout}`)
}
const harnessOrigin = `http://127.0.0.1:${port}`
if (widgetUrl.origin === harnessOrigin) fail(`the widget must not be served from the harness's origin (${harnessOrigin}): a CRM always loads it cross-origin`)

// The widget must answer from this machine before we start a browser.
const ownFixture = widgetUrl.hostname === '127.0.0.1' && [port + 1, port + 2].includes(Number(widgetUrl.port))
if (!ownFixture) {
  try {
    const response = await fetch(widgetUrl, { signal: AbortSignal.timeout(10_000), redirect: 'follow' })
    if (!response.ok) fail(`the widget answered ${response.status} ${response.statusText} at ${widgetUrl.href}`)
  } catch (error) {
    fail(
      `the widget is not reachable from this machine at ${widgetUrl.href} (${error?.cause?.code ?? error?.message ?? error}).\n` +
        'Start it first (e.g. your dev server on localhost) and pass the URL it prints.',
    )
  }
}

const chromium = process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH) ? process.env.CHROMIUM_PATH : '/usr/bin/chromium'
if (!existsSync(chromium)) fail('no Chromium found: install it (sudo apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium binary')

if (!existsSync(resolve(root, 'dist', 'index.html'))) {
  process.stdout.write('check-widget: building the harness (dist/ is missing)…\n')
  const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' })
  if (build.status !== 0) fail('the build failed', build.status ?? 1)
}

const env = {
  ...process.env,
  WIDGET_URL: widgetUrl.href,
  WIDGET_DRIVER: options.driver,
  KIT_PORT: String(port),
  FORCE_COLOR: process.env.FORCE_COLOR ?? '0',
  ...(options.syncTimeout !== null ? { WIDGET_SYNC_TIMEOUT_MS: String(Number(options.syncTimeout)) } : {}),
  ...(options.name !== null ? { WIDGET_NAME: options.name } : {}),
}
process.stdout.write(`check-widget: checking ${widgetUrl.href} in the harness at ${harnessOrigin}\n`)
const run = spawnSync('npx', ['playwright', 'test', '-c', 'e2e/kit/playwright.kit.config.ts'], { cwd: root, stdio: 'inherit', env })
process.stdout.write('JUnit XML: reports/widget-check.junit.xml · report with traces: npx playwright show-report reports/widget-check-html\n')
process.exit(run.status ?? 1)
