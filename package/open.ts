/**
 * `ringside open [path]`: Chromium, headed, at the harness of a running
 * `ringside start`, with the calling SDK's public CDN URLs (jsDelivr, unpkg)
 * answered by that server (kit/sdk-cdn.ts, the same routes as check-widget),
 * so a widget that loads the SDK from a CDN runs offline and unchanged.
 *
 * Why Playwright's routes in a persistent context, and not Chromium's
 * --host-resolver-rules or a proxy: the CDN URLs are https, so pointing their
 * host names at the local server would need a certificate for cdn.jsdelivr.net
 * and unpkg.com that the browser trusts (a local CA or ignoring certificate
 * errors for every site). A route answers the request inside the browser, before
 * TLS, for every page of the context: the widget's iframe, the calling window
 * it opens and tabs the user opens (a persistent context is the browser's only
 * context, so new tabs belong to it). The process stays up while the browser is
 * open, because it answers those requests.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { routeSdkCdn } from '../kit/sdk-cdn.ts'
import { firstAllowedBlock, refusedUrlSentence, START_PORT_ROLES } from '../emulator/node/bad-ports.ts'
import { BROWSER_ARGS } from '../kit/browser/browser-args.ts'
import { openTarget } from './open-target.ts'
import { parseWaits, WaitExpired, waitMs, waitSentence, WAITS_ENV, within } from '../shared/waits.ts'

export interface OpenOptions {
  url: string
  /** Keep the browser profile here (default: a temporary one, removed on exit). */
  profile?: string
  headless?: boolean
  ignoreHttpsErrors?: boolean
}

function problem(message: string): 2 {
  process.stderr.write(`ringside open: ${message}\n`)
  return 2
}

/**
 * The sentence for a URL on a port Chromium refuses to load: Ringside's own (--url), or the page to open; null for
 * one it loads (or no URL at all).
 */
export function refusedPortOf(url: string, whose: 'ringside' | 'page'): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  return refusedUrlSentence(parsed, `${parsed.origin} is`, (port) =>
    whose === 'ringside' ? `start Ringside on another port (e.g. \`ringside start --port ${firstAllowedBlock(port + 1, START_PORT_ROLES.length)}\`) and pass its URL` : 'serve the page on another port',
  )
}

/** Removes a temporary profile; Chromium may still be writing to it just after it closed, so retry, and never throw. */
function removeProfile(profile: string): void {
  try {
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
  } catch {
    // A leftover folder in the system's temp folder is not worth failing the command over.
  }
}

/** Resolves to the exit code once the browser is closed (0), or at once when it cannot open (2). */
export async function runOpen(path: string, options: OpenOptions): Promise<0 | 2> {
  const origin = options.url
  const refused = refusedPortOf(origin, 'ringside') ?? (/^https?:\/\//i.test(path) ? refusedPortOf(path, 'page') : null)
  if (refused !== null) return problem(refused)
  const waits = parseWaits(process.env[WAITS_ENV])
  if (typeof waits === 'string') return problem(waits)
  const serverMs = waitMs('open-server', process.env)
  try {
    const response = await fetch(`${origin}/_ringside/v1/server`, { signal: AbortSignal.timeout(serverMs) })
    if (!response.ok) throw new Error(`it answered ${response.status}`)
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') return problem(waitSentence('open-server', serverMs, { url: origin }))
    return problem(`no Ringside answers at ${origin} (${error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)}): start one with \`ringside start\`, or pass --url.`)
  }
  let playwright: typeof import('@playwright/test')
  try {
    playwright = await import('@playwright/test')
  } catch {
    return problem('it drives Chromium through @playwright/test, which is not installed: run `npm i -D @playwright/test`.')
  }
  const { findChromium, NO_CHROMIUM } = await import('../kit/browser/chromium.ts')
  const executablePath = findChromium(process.env, () => playwright.chromium.executablePath())
  if (executablePath === null) return problem(NO_CHROMIUM)

  const profile = options.profile ? resolve(options.profile) : mkdtempSync(join(tmpdir(), 'ringside-open-'))
  // A path of the harness (its routes follow `#`), or any http(s) URL (a widget page on its own, say).
  const target = openTarget(path, origin)
  let context: Awaited<ReturnType<typeof playwright.chromium.launchPersistentContext>>
  try {
    context = await playwright.chromium.launchPersistentContext(profile, {
      executablePath,
      headless: options.headless === true,
      // Headed: the window's own size, not a fixed viewport.
      viewport: options.headless ? { width: 1500, height: 950 } : null,
      args: BROWSER_ARGS,
      ignoreHTTPSErrors: options.ignoreHttpsErrors === true,
      timeout: waitMs('open-browser', process.env),
    })
  } catch (error) {
    if (!options.profile) removeProfile(profile)
    const reason = error instanceof Error ? error.message.split('\n').find((line) => line.trim() !== '') ?? error.message : String(error)
    return problem(`Chromium (${executablePath}) did not start: ${reason}${process.env.DISPLAY || process.platform !== 'linux' ? '' : ' (no display: set DISPLAY, or pass --headless)'}`)
  }
  await routeSdkCdn(context, origin, {
    onServed: (url, release, substitution) => process.stdout.write(`  SDK ${url} → Ringside's ${release}${substitution ? ` (warning: ${substitution})` : ''}\n`),
    onProblem: (text) => process.stderr.write(`  ${text}\n`),
  })
  const closed = new Promise<void>((done) => context.on('close', () => done()))
  const stop = () => void context.close().catch(() => {})
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  const page = context.pages()[0] ?? (await context.newPage())
  process.stdout.write(`ringside open: ${target} in Chromium; the SDK's CDN URLs (jsDelivr, unpkg) are answered by ${origin}. Close the browser (or press Ctrl+C) to stop.\n`)
  // Its document, then its load, within one bound: a page that never finishes loading gets a sentence, and stays open.
  const pageMs = waitMs('open-page', process.env)
  let status: number | null = null
  const loading = (async () => {
    status = (await page.goto(target, { waitUntil: 'commit', timeout: 0 }))?.status() ?? null
    await page.waitForLoadState('load', { timeout: 0 })
  })()
  let closedNow = false
  void closed.then(() => (closedNow = true))
  let failed = false
  await within(loading, 'open-page', pageMs).catch((error: unknown) => {
    // Closed while loading (the user, Ctrl+C): nothing to say.
    if (closedNow) return
    const received = status === null ? 'no answer to its document yet' : `its document answered ${status}; the page or a frame is still loading`
    const said = error instanceof WaitExpired ? waitSentence('open-page', pageMs, { url: target, received }) : `could not open ${target}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`
    process.stderr.write(`  ${said}\n`)
    failed = !(error instanceof WaitExpired)
  })
  const answered = status as number | null
  if (!failed && !closedNow && answered !== null && answered >= 400) {
    process.stderr.write(`  could not open ${target}: it answered ${answered}\n`)
    failed = true
  }
  // Headless, a page that could not open leaves nothing to look at: the command ends (exit 2) instead of waiting for a
  // window no one can close. A headed browser stays open, so that the person can read the error page.
  if (failed && options.headless === true && !closedNow) stop()
  await closed
  process.off('SIGINT', stop)
  process.off('SIGTERM', stop)
  if (!options.profile) removeProfile(profile)
  return failed && options.headless === true ? 2 : 0
}
