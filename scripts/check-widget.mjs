#!/usr/bin/env node
// Widget readiness check: runs Ringside's protocol conformance suite against
// any calling widget, by URL, in the harness (no CRM account needed).
//
//   npm run check-widget -- <widget-url> [--driver <name|path>] [--strict] [--ignore-https-errors]
//                                        [--sync-timeout <ms>] [--port <n>] [--name <text>]
//
// The widget must be reachable from this machine (e.g. your dev server on
// localhost). Prints the readiness report, writes JUnit XML to
// reports/widget-check.junit.xml (and the HTML report with traces to
// reports/widget-check-html/).
//
// Exit codes: 0 every check passed or was skipped (with its reason), 1 a check
// failed (findings of severity error; warnings too with --strict), 2 the check
// could not run (bad arguments, widget not reachable, no Chromium, build failed).
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'

const root = resolve(import.meta.dirname, '..')

const USAGE = `Usage: npm run check-widget -- <widget-url> [options]

Runs the protocol conformance suite against the calling widget at <widget-url>,
loaded cross-origin in the Ringside harness.

Options:
  --driver <name|path>   how to operate the widget: auto (default), ringside,
                         npm-fixture, none, or a path to your driver module
                         (see e2e/README.md). Without a driver, the steps that
                         need a user inside the widget are reported as skipped.
  --strict               warnings (deviations from the SDK's types that the real
                         CRM copes with) fail the check too
  --ignore-https-errors  accept the widget's self-signed or otherwise untrusted
                         https certificate (a local dev server)
  --sync-timeout <ms>    how long the host waits for SYNC_ACK (default 10000)
  --port <n>             harness port; the widget fixtures use n+1, n+2
                         (default 4173)
  --placement <where>    where the harness places the widget: widget (default),
                         remote, window (the calling window), or all (one
                         Playwright project each)
  --name <text>          the widget's name in the dock and the report
  -h, --help             this text

It prints each journey (outbound, inbound) and check as it finishes, then the
readiness report.

Exit codes: 0 ready (or only skipped checks), 1 a check failed, 2 the check could not run.

Example:
  npm run check-widget -- http://localhost:5174/ --driver ./e2e/my-widget-driver.ts
`

function fail(message, code = 2) {
  process.stderr.write(`check-widget: ${message}\n`)
  process.exit(code)
}

function parseOptions(argv) {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        driver: { type: 'string', default: 'auto' },
        strict: { type: 'boolean', default: false },
        'ignore-https-errors': { type: 'boolean', default: false },
        'sync-timeout': { type: 'string' },
        port: { type: 'string' },
        name: { type: 'string' },
        placement: { type: 'string', default: 'widget' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    })
  } catch (error) {
    fail(`${error.message}\n\n${USAGE}`)
  }
  const { values, positionals } = parsed
  if (values.help) {
    process.stdout.write(USAGE)
    process.exit(0)
  }
  if (positionals.length > 1) fail(`unexpected argument ${positionals[1]}\n\n${USAGE}`)
  return {
    url: positionals[0] ?? null,
    driver: values.driver,
    strict: values.strict,
    ignoreHttpsErrors: values['ignore-https-errors'],
    syncTimeout: values['sync-timeout'] ?? null,
    port: values.port ?? null,
    name: values.name ?? null,
    placement: values.placement,
  }
}

/** Certificate problems (Node's TLS error codes): the widget answers, but its certificate is not trusted. */
const TLS_CODE = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS|ERR_SSL/

/** One GET of the widget's page (redirects not followed: any answer means it is up). */
function probe(url, ignoreHttpsErrors) {
  return new Promise((resolvePromise, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method: 'GET', timeout: 10_000, rejectUnauthorized: !ignoreHttpsErrors }, (response) => {
      response.resume()
      resolvePromise({ status: response.statusCode ?? 0, statusText: response.statusMessage ?? '' })
    })
    request.on('timeout', () => request.destroy(Object.assign(new Error('no answer within 10 s'), { code: 'ETIMEDOUT' })))
    request.on('error', reject)
    request.end()
  })
}

const options = parseOptions(process.argv.slice(2))
if (options.url === null) fail(`which widget? Give its URL.\n\n${USAGE}`)
const PLACEMENTS = ['widget', 'remote', 'window']
const placements = options.placement === 'all' ? PLACEMENTS : options.placement.split(',').map((p) => p.trim())
if (placements.some((p) => !PLACEMENTS.includes(p))) fail(`--placement ${JSON.stringify(options.placement)} is not a placement; use ${PLACEMENTS.join(', ')} or all`)

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
    const response = await probe(widgetUrl, options.ignoreHttpsErrors)
    if (response.status >= 400) fail(`the widget answered ${response.status} ${response.statusText} at ${widgetUrl.href}: check the URL (and that your dev server serves that path).`)
  } catch (error) {
    const code = error?.code ?? ''
    if (TLS_CODE.test(code)) {
      fail(
        `the widget at ${widgetUrl.href} answers, but its https certificate is not trusted (${code}: ${error.message}).\n` +
          'A self-signed certificate of a local dev server? Pass --ignore-https-errors to accept it.',
      )
    }
    fail(
      `the widget is not reachable from this machine at ${widgetUrl.href} (${code || error?.message || error}).\n` +
        'Start it first (e.g. your dev server on localhost) and pass the URL it prints.',
    )
  }
}

const chromium = process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH) ? process.env.CHROMIUM_PATH : '/usr/bin/chromium'
if (!existsSync(chromium)) fail('no Chromium found: install it (sudo apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium binary')

if (!existsSync(resolve(root, 'dist', 'index.html'))) {
  process.stdout.write('check-widget: building the harness (dist/ is missing)…\n')
  const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' })
  if (build.status !== 0) fail('the build failed')
}

const env = {
  ...process.env,
  WIDGET_URL: widgetUrl.href,
  WIDGET_DRIVER: options.driver,
  WIDGET_PLACEMENT: placements.join(','),
  KIT_PORT: String(port),
  FORCE_COLOR: process.env.FORCE_COLOR ?? '0',
  ...(options.syncTimeout !== null ? { WIDGET_SYNC_TIMEOUT_MS: String(Number(options.syncTimeout)) } : {}),
  ...(options.name !== null ? { WIDGET_NAME: options.name } : {}),
  WIDGET_STRICT: options.strict ? '1' : '0',
  WIDGET_IGNORE_HTTPS_ERRORS: options.ignoreHttpsErrors ? '1' : '0',
}
process.stdout.write(`check-widget: checking ${widgetUrl.href} in the harness at ${harnessOrigin}\n`)
const run = spawnSync('npx', ['playwright', 'test', '-c', 'e2e/kit/playwright.kit.config.ts'], { cwd: root, stdio: 'inherit', env })
const reportDir = process.env.WIDGET_CHECK_DIR ?? 'reports'
process.stdout.write(`JUnit XML: ${reportDir}/widget-check.junit.xml · report with traces: npx playwright show-report ${reportDir}/widget-check-html\n`)
// Playwright exits 1 when a check failed; anything else it could not run. Not one check ran (the
// harness server could not start; the reporter's line, e2e/kit/readiness-reporter.ts): could not run.
const reportFile = resolve(root, reportDir, 'widget-check.txt')
const report = existsSync(reportFile) ? readFileSync(reportFile, 'utf8') : ''
if (report.includes('Widget readiness check: no conformance checks ran.')) process.exit(2)
process.exit(run.status === 0 ? 0 : run.status === 1 ? 1 : 2)
