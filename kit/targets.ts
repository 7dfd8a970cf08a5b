/**
 * Which widgets the conformance suite checks.
 *
 * - `WIDGET_URL` set: that widget only, with `WIDGET_DRIVER` (default `auto`).
 * - otherwise: Ringside's reference widget and the fixture widget built on
 *   the npm package @hubspot/calling-extensions-sdk 0.9.7, both on the
 *   widget origin (cross-origin to the harness).
 *
 * URLs depend on the run's baseURL, so they are functions of it.
 */
import { builtInDriver } from './drivers/load-driver.ts'
import { JOURNEYS, type JourneyKind } from './journey.ts'
import { fixtureUrl, kitOrigins, ourWidgetUrl } from './origins.ts'
import { parsePlacementOption } from './placements.ts'

export interface ConformanceTarget {
  /** Shown in test titles and the readiness report. */
  readonly name: string
  url(baseURL: string | undefined): string
  /** Driver spec for loadDriver(). */
  readonly driver: string
}

export const BUILT_IN_TARGETS: readonly ConformanceTarget[] = [
  { name: 'Ringside reference widget', url: (baseURL) => ourWidgetUrl(baseURL), driver: 'ringside' },
  { name: 'npm SDK 0.9.7 widget', url: (baseURL) => fixtureUrl(kitOrigins(baseURL), 'conformance-npm-widget', { answerAfterMs: '300' }), driver: 'npm-fixture' },
]

export function conformanceTargets(env: NodeJS.ProcessEnv = process.env): readonly ConformanceTarget[] {
  const url = env.WIDGET_URL?.trim()
  if (!url) return BUILT_IN_TARGETS
  return [{ name: env.WIDGET_NAME?.trim() || 'widget under test', url: () => url, driver: env.WIDGET_DRIVER?.trim() || 'auto' }]
}

/** The host's handshake timeout for the journey: $WIDGET_SYNC_TIMEOUT_MS, default 10000. */
export function syncTimeoutFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = Number(env.WIDGET_SYNC_TIMEOUT_MS)
  return Number.isFinite(raw) && raw >= 200 ? Math.round(raw) : 10_000
}

/** check-widget --strict: $WIDGET_STRICT=1 makes warnings fail their check. */
export function strictFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.WIDGET_STRICT === '1'
}

/**
 * The `ringside start` arguments that register $WIDGET_URL under its name
 * ($WIDGET_NAME, which check-widget sets to --name or the page's <title>), so
 * the harness's dock shows the widget's own name; empty without $WIDGET_URL.
 */
export function registrationArgs(env: NodeJS.ProcessEnv = process.env): string {
  const url = env.WIDGET_URL?.trim()
  if (!url) return ''
  const name = env.WIDGET_NAME?.trim()
  return ` --widget ${shellWord(url)}${name ? ` --widget-name ${shellWord(name)}` : ''}`
}

/** One word for a POSIX shell (Playwright runs webServer commands through one): single-quoted, so a page title's `$` or backtick stays text. */
function shellWord(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

/**
 * How many workers a check run needs: one per journey that opens a browser, at
 * most two. A journey the driver cannot run (the inbound one, for a built-in
 * driver without `ring`) is only skipped checks, which a worker that already
 * runs a journey reports in a moment; a worker of its own would start a
 * process and a Chromium just for that. A driver module may ring: its
 * journeys count.
 */
export function checkWorkers(baseURL: string, env: NodeJS.ProcessEnv = process.env): number {
  const placements = parsePlacementOption(env.WIDGET_PLACEMENT)
  const origins = kitOrigins(baseURL)
  let journeys = 0
  for (const target of conformanceTargets(env)) {
    const driver = builtInDriver(target.driver, target.url(baseURL), origins)
    journeys += driver !== null && driver.ring === undefined ? 1 : JOURNEYS.length
  }
  return Math.min(2, journeys * (typeof placements === 'string' ? 1 : placements.length))
}

/**
 * The journeys of `target` in the order the suite declares them: first a
 * journey its built-in driver cannot run (the inbound one, for a driver
 * without `ring`: only skipped checks), then the others in JOURNEYS order.
 * Playwright replaces the worker after a failed check; skipped checks left
 * after the last failed one would start a worker (a process and its
 * modules, about a CPU-second) just to be reported, where before the journey
 * they share its worker. The reports list the journeys in JOURNEYS order
 * whatever order they ran in.
 */
export function journeysInRunOrder(target: ConformanceTarget, baseURL: string): JourneyKind[] {
  const driver = builtInDriver(target.driver, target.url(baseURL), kitOrigins(baseURL))
  const cannotRun = (kind: JourneyKind) => kind === 'inbound' && driver !== null && driver.ring === undefined
  return [...JOURNEYS.filter(cannotRun), ...JOURNEYS.filter((kind) => !cannotRun(kind))]
}
