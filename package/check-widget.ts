/**
 * `ringside check-widget <url>`: the conformance suite of the kit against
 * any widget, run by the user's @playwright/test with this package's config
 * (kit.config.ts) and the first Chromium found (chromium.ts).
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { findChromium, NO_CHROMIUM } from './chromium.ts'

export interface CheckWidgetOptions {
  driver: string
  junit: string
  syncTimeout: string
  strict?: boolean
  ignoreHttpsErrors?: boolean
  port: string
  name?: string
}

function problem(message: string): 2 {
  process.stderr.write(`ringside check-widget: ${message}\n`)
  return 2
}

/** Runs the check; resolves to the exit code (0 ready, 1 a check failed, 2 could not run). */
export async function runCheckWidget(url: string, options: CheckWidgetOptions): Promise<0 | 1 | 2> {
  let widgetUrl: URL
  try {
    widgetUrl = new URL(url)
  } catch {
    return problem(`${JSON.stringify(url)} is not a URL; give an absolute http(s) URL, e.g. http://localhost:5174/`)
  }
  if (widgetUrl.protocol !== 'http:' && widgetUrl.protocol !== 'https:') return problem(`${widgetUrl.href} is not an http(s) URL`)
  const port = Number(options.port)
  if (!Number.isInteger(port) || port < 1024 || port > 65533) return problem(`--port must be an integer between 1024 and 65533, got ${options.port}`)
  const syncTimeout = Number(options.syncTimeout)
  if (!Number.isFinite(syncTimeout) || syncTimeout < 200 || syncTimeout > 120_000) return problem(`--sync-timeout must be between 200 and 120000 ms, got ${options.syncTimeout}`)
  const ownWidget = widgetUrl.hostname === '127.0.0.1' && Number(widgetUrl.port) === port + 1
  if (!ownWidget) {
    try {
      const response = await fetch(widgetUrl, { redirect: 'manual', signal: AbortSignal.timeout(10_000) })
      if (response.status >= 400) return problem(`the widget answered ${response.status} ${response.statusText} at ${widgetUrl.href}`)
    } catch (error) {
      const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)
      return problem(`the widget is not reachable from this machine at ${widgetUrl.href} (${cause}). Start it first (e.g. your dev server) and pass the URL it prints.`)
    }
  }
  if (process.env.CHROMIUM_PATH && !existsSync(process.env.CHROMIUM_PATH)) return problem(`CHROMIUM_PATH is ${process.env.CHROMIUM_PATH}, which does not exist.`)
  if (findChromium() === null) return problem(NO_CHROMIUM)
  let cli: string
  try {
    cli = createRequire(resolve(process.cwd(), 'package.json')).resolve('@playwright/test/cli')
  } catch {
    try {
      cli = createRequire(import.meta.url).resolve('@playwright/test/cli')
    } catch {
      return problem('@playwright/test is not installed: npm i -D @playwright/test')
    }
  }
  const dir = resolve(options.junit, '..')
  process.stdout.write(`ringside check-widget: checking ${widgetUrl.href} in the harness at http://127.0.0.1:${port}\n`)
  const run = spawnSync(process.execPath, [cli, 'test', '-c', resolve(import.meta.dirname, 'kit.config.js')], {
    stdio: 'inherit',
    env: {
      ...process.env,
      WIDGET_URL: widgetUrl.href,
      WIDGET_DRIVER: options.driver,
      KIT_PORT: String(port),
      WIDGET_SYNC_TIMEOUT_MS: String(syncTimeout),
      WIDGET_STRICT: options.strict ? '1' : '0',
      WIDGET_IGNORE_HTTPS_ERRORS: options.ignoreHttpsErrors ? '1' : '0',
      WIDGET_CHECK_DIR: dir,
      WIDGET_JUNIT: resolve(options.junit),
      FORCE_COLOR: process.env.FORCE_COLOR ?? '0',
      ...(options.name && { WIDGET_NAME: options.name }),
    },
  })
  process.stdout.write(`JUnit XML: ${options.junit}\n`)
  return run.status === 0 ? 0 : run.status === 1 ? 1 : 2
}
