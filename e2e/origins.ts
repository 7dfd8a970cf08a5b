import { existsSync } from 'node:fs'
import { DEFAULT_PORTS, E2E_BLOCK_SIZE } from '../shared/ports.mjs'

/**
 * Ports of the e2e origins. `E2E_PORT` moves the block, so two test runs on
 * one machine do not collide; the default is DEFAULT_PORTS.e2e (shared/ports.mjs),
 * and the block is E2E_BLOCK_SIZE ports long.
 *
 * The Ringside server (`npm start --dist`) serves the harness and +1 the
 * widget origin: product pages only. The test pages (the e2e fixtures, built
 * into dist-test/) are served by tools/test/serve-dist.mjs on origins of their
 * own: +2 the hostile origin, +3 test pages (hosts, callbacks), +4 a second
 * test origin (fixture widgets, so host and widget fixtures meet across
 * origins). The e2e server lets +3 frame Ringside's pages (--frame-ancestor).
 *
 * +10 and +11 serve the same build as plain static files with no API behind
 * them: the browser-only mode (MSW + SharedWorker + IndexedDB), harness and
 * widget origins (the harness's default widget is on the next port).
 *
 * From +20 up, blocks of three ports for the check-widget runs that
 * e2e/check-widget.spec.ts starts (each brings its own harness server).
 */
const base = Number(process.env.E2E_PORT ?? DEFAULT_PORTS.e2e)
if (!Number.isInteger(base) || base < 1024 || base + E2E_BLOCK_SIZE - 1 > 65535) throw new Error(`E2E_PORT must be a port number, got ${process.env.E2E_PORT}`)
export const PORTS = { harness: base, widget: base + 1, hostile: base + 2, testPages: base + 3, testWidgets: base + 4, staticHarness: base + 10, staticWidget: base + 11, checkWidgetRuns: base + 20 } as const

/** The origins of one site: same host, different ports. */
export const ORIGINS = {
  harness: `http://127.0.0.1:${PORTS.harness}`,
  widget: `http://127.0.0.1:${PORTS.widget}`,
  hostile: `http://127.0.0.1:${PORTS.hostile}`,
  /** Test pages (dist-test/): hosts and other fixture pages. */
  testPages: `http://127.0.0.1:${PORTS.testPages}`,
  /** Test pages on a second origin: the fixture widgets. */
  testWidgets: `http://127.0.0.1:${PORTS.testWidgets}`,
  /** The static build, browser-only mode (see e2e/browser-only/). */
  staticHarness: `http://127.0.0.1:${PORTS.staticHarness}`,
  staticWidget: `http://127.0.0.1:${PORTS.staticWidget}`,
} as const

/** $CHROMIUM_PATH, else Debian's /usr/bin/chromium. */
export function chromiumPath(): string {
  const fromEnv = process.env.CHROMIUM_PATH
  if (fromEnv && existsSync(fromEnv)) return fromEnv
  return '/usr/bin/chromium'
}

/** Playwright's workers for the e2e suite: $E2E_WORKERS (a whole number from 1 to 8), default 2. */
export function e2eWorkers(value: string | undefined): number {
  if (value === undefined || value === '') return 3
  const workers = Number(value)
  if (!Number.isInteger(workers) || workers < 1 || workers > 8) throw new Error(`E2E_WORKERS must be a whole number from 1 to 8, got ${value}`)
  return workers
}
