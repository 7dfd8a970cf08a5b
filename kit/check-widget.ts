/**
 * `ringside check-widget <url>`: the conformance suite of the kit against
 * any widget, run by the user's @playwright/test with this package's config
 * (kit.config.ts) and the first Chromium found (chromium.ts).
 *
 * @playwright/test is an optional peer: it is looked up here, when this
 * command runs, never when the CLI loads.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { openInBrowser } from './browser/open-in-browser.ts'
import { checkUrl, refusalText } from '../shared/url/safe-url.ts'
import { fetchWidgetPage, TLS_ERROR_CODE, widgetName, WidgetPageTimeout } from '../emulator/node/pages/widget-page.ts'
import { parseWaits, waitMs, waitSentence, WAITS_ENV } from '../shared/waits.ts'
import { parsePlacementOption } from './placements.ts'
import { NOTHING_RAN } from './report/nothing-ran.ts'
import { findChromium, NO_CHROMIUM } from './browser/chromium.ts'
import { plainOutputEnv } from './browser/plain-output.ts'
import { refusedPortSentence, refusedUrlSentence, START_PORT_ROLES } from '../emulator/node/bad-ports.ts'

export interface CheckWidgetOptions {
  driver: string
  junit: string
  /** The self-contained HTML report. */
  html: string
  /** Open the HTML report when the run ends. */
  open?: boolean
  syncTimeout: string
  strict?: boolean
  ignoreHttpsErrors?: boolean
  port: string
  name?: string
  placement: string
}

export const INSTALL_PLAYWRIGHT = 'npm i -D @playwright/test'

function problem(message: string): 2 {
  process.stderr.write(`ringside check-widget: ${message}\n`)
  return 2
}

interface FoundPlaywright {
  cli: string
  /** Playwright's `chromium.executablePath()`: it loads @playwright/test, so only when $CHROMIUM_PATH does not say. */
  executablePath: () => Promise<string>
}

/** @playwright/test's CLI and its `chromium.executablePath`, from the user's project first, else next to this package; null when it is not installed. */
function findPlaywright(): FoundPlaywright | null {
  for (const base of [resolve(process.cwd(), 'package.json'), import.meta.url]) {
    try {
      const require = createRequire(base)
      const cli = require.resolve('@playwright/test/cli')
      const entry = pathToFileURL(require.resolve('@playwright/test')).href
      const executablePath = async () => {
        const module = (await import(entry)) as { chromium?: { executablePath(): string }; default?: { chromium?: { executablePath(): string } } }
        return (module.chromium ?? module.default?.chromium)?.executablePath() ?? ''
      }
      return { cli, executablePath }
    } catch {
      // not installed there
    }
  }
  return null
}

/** Runs the check; resolves to the exit code (0 ready, 1 a check failed, 2 could not run). */
export async function runCheckWidget(url: string, options: CheckWidgetOptions): Promise<0 | 1 | 2> {
  const checked = checkUrl(url)
  if (!checked.ok) return problem(`${refusalText('the widget URL', url, checked.reason)} Give an absolute http(s) URL, e.g. http://localhost:5174/`)
  const widgetUrl = new URL(checked.href)
  const port = Number(options.port)
  if (!Number.isInteger(port) || port < 1024 || port > 65533) return problem(`--port must be an integer between 1024 and 65533, got ${options.port}`)
  const syncTimeout = Number(options.syncTimeout)
  if (!Number.isFinite(syncTimeout) || syncTimeout < 200 || syncTimeout > 120_000) return problem(`--sync-timeout must be between 200 and 120000 ms, got ${options.syncTimeout}`)
  const waits = parseWaits(process.env[WAITS_ENV])
  if (typeof waits === 'string') return problem(waits)
  const placements = parsePlacementOption(options.placement)
  if (typeof placements === 'string') return problem(placements)
  const refused = refusedPortSentence(port, [...START_PORT_ROLES, 'the hostile origin'])
  if (refused !== null) return problem(refused)
  const widgetRefused = refusedUrlSentence(widgetUrl, 'the widget is served', () => 'serve it on another port')
  if (widgetRefused !== null) return problem(widgetRefused)
  if (widgetUrl.origin === `http://127.0.0.1:${port}`) return problem(`the widget must not be served from the harness's origin (http://127.0.0.1:${port}): a CRM always loads it cross-origin; serve it on another port, or pass --port`)
  const ownWidget = widgetUrl.hostname === '127.0.0.1' && Number(widgetUrl.port) === port + 1
  let name = options.name?.trim() || null
  if (!ownWidget) {
    try {
      const page = await fetchWidgetPage(widgetUrl, { ignoreHttpsErrors: options.ignoreHttpsErrors ?? false, timeoutMs: waitMs('widget-page', process.env) })
      if (page.status >= 400) return problem(`the widget answered ${page.status} ${page.statusText} at ${widgetUrl.href}: check the URL (and that your dev server serves that path).`)
      name ??= widgetName(widgetUrl.href, page.title)
    } catch (error) {
      if (error instanceof WidgetPageTimeout) return problem(`${waitSentence('widget-page', error.ms, { url: widgetUrl.href, received: error.received })}. Check that your dev server finishes serving it.`)
      const code = String((error as { code?: unknown }).code ?? '')
      const reason = error instanceof Error ? error.message : String(error)
      if (TLS_ERROR_CODE.test(code)) {
        return problem(`the widget at ${widgetUrl.href} answers, but its https certificate is not trusted (${code}: ${reason}); pass --ignore-https-errors to accept a self-signed dev certificate.`)
      }
      return problem(`the widget is not reachable from this machine at ${widgetUrl.href} (${code || reason}); start it first (e.g. your dev server) and pass the URL it prints.`)
    }
  }
  // Our own fixture origin is not up before the harness server starts: its name comes from its URL.
  name ??= widgetName(widgetUrl.href, null)
  const playwright = findPlaywright()
  if (playwright === null) return problem(`check-widget runs the checks with Playwright, and @playwright/test is not installed here; install it with: ${INSTALL_PLAYWRIGHT}`)
  if (process.env.CHROMIUM_PATH && !existsSync(process.env.CHROMIUM_PATH)) return problem(`CHROMIUM_PATH is ${process.env.CHROMIUM_PATH}, which does not exist.`)
  const ownChromium = process.env.CHROMIUM_PATH ? '' : await playwright.executablePath().catch(() => '')
  if (findChromium(process.env, () => ownChromium) === null) return problem(NO_CHROMIUM)
  const dir = resolve(options.junit, '..')
  const html = resolve(options.html)
  process.stdout.write(`ringside check-widget: checking ${widgetUrl.href} (${placements.join(', ')} placement${placements.length > 1 ? 's' : ''}) in the harness at http://127.0.0.1:${port}\n`)
  const code = await new Promise<number | null>((done) => {
    const child = spawn(process.execPath, [playwright.cli, 'test', '-c', resolve(import.meta.dirname, 'kit.config.js')], {
      stdio: 'inherit',
      env: {
        ...plainOutputEnv(process.env),
        WIDGET_URL: widgetUrl.href,
        WIDGET_DRIVER: options.driver,
        WIDGET_PLACEMENT: placements.join(','),
        KIT_PORT: String(port),
        WIDGET_SYNC_TIMEOUT_MS: String(syncTimeout),
        WIDGET_STRICT: options.strict ? '1' : '0',
        WIDGET_IGNORE_HTTPS_ERRORS: options.ignoreHttpsErrors ? '1' : '0',
        WIDGET_CHECK_DIR: dir,
        WIDGET_JUNIT: resolve(options.junit),
        WIDGET_HTML: html,
        ...(name !== null && { WIDGET_NAME: name }),
      },
    })
    child.on('error', () => done(null))
    child.on('close', (status) => done(status))
  })
  process.stdout.write(`JUnit XML: ${options.junit}\n`)
  // Not one check ran (e.g. the harness could not start on --port): the check could not run.
  const report = await readFile(resolve(dir, 'widget-check.txt'), 'utf8').catch(() => '')
  if (existsSync(html)) await showReport(html, options.open === true)
  if (report.includes(NOTHING_RAN)) return 2
  return code === 0 ? 0 : code === 1 ? 1 : 2
}

/** With --open, opens the HTML report (the readiness report has already said where it is). */
export async function showReport(file: string, open: boolean): Promise<void> {
  if (!open) return
  const result = await openInBrowser(file)
  const url = pathToFileURL(file).href
  process.stdout.write(result.opened ? `Opened ${url} in your browser.\n` : `Not opening it here (${result.reason}); open ${url} in a browser.\n`)
}
