// Ringside's default ports: their one home, read by the server, the `ringside` CLI, the scripts (plain .mjs, so
// Node runs them without a TypeScript loader), the test configs and the pages (no Node API here). The probe that
// finds free ports is emulator/node/free-port.mjs.
//
// Each default is a block of consecutive ports on 127.0.0.1, chosen clear of the ports that common dev servers take
// by default: Vite's 5173 and 4173 (and the ports above them that Vite moves to when those are busy), 3000 (Create
// React App, Next.js, Express examples), 3001, 4000, 4200 (Angular), 4321 (Astro), 5000 and 7000 (Flask; macOS's
// AirPlay receiver), 6006 (Storybook), 8000 (Django), 8080, 8081, 8787 (Wrangler), 8888 (Jupyter), 9229 (Node's
// inspector), 9323 (Playwright's HTML report), and 7473/7474/7687 (Neo4j). None is a port Chromium refuses
// (emulator/node/bad-ports.ts). The defaults stay fixed rather than moving to whatever is free: the harness's origin is
// written into the data (the registered widget's URL, OAuth redirect URLs), into backends' settings and into the
// browser's storage for that origin, so a server that wandered to another port would lose all three. A start whose
// port is taken is refused with a sentence that names the next free block (emulator/node/free-port.mjs).

/**
 * The first port of each block:
 * - start: `npm start` and `ringside start`: the harness and CRM API; the reference widget's origin is the next
 *   port (7464 spells RING on a phone keypad).
 * - checkWidget: `ringside check-widget` and `npm run check-widget` (KIT_PORT): its harness, then the widget and
 *   hostile origins; apart from `start`, so a check runs beside your own server.
 * - preview: `npm run preview`, the static build (browser-only mode): harness, widget and a third origin.
 * - e2e: `npm test`'s block (E2E_PORT), E2E_BLOCK_SIZE ports from here (e2e/origins.ts lays them out).
 */
export const DEFAULT_PORTS = Object.freeze({ start: 7464, checkWidget: 7480, preview: 7490, e2e: 7500 })

/** How many ports `npm test` takes from E2E_PORT up (e2e/origins.ts: up to +20 the servers, then 30 check-widget runs of 3). */
export const E2E_BLOCK_SIZE = 110

/** The base URL of a server on `port` of 127.0.0.1, without a trailing slash. */
export function loopbackUrl(port) {
  return `http://127.0.0.1:${port}`
}
