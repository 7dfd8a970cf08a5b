// Runs one browser section of the benchmark alone (node tools/bench/<section>.mjs), after a
// build: serves dist/ and the test pages on the ports of E2E_PORT (tools/bench/server.mjs)
// as npm run bench does, and launches Chromium with the same flags.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { chromium } from '@playwright/test'
import { benchOrigins, startBenchServers } from './server.mjs'
import { DEFAULT_PORTS } from '../../shared/ports.mjs'

const root = resolve(import.meta.dirname, '../..')

/** The flags of kit/browser/browser-args.ts (read from the file, as tools/bench/bench.mjs does). */
function browserArgs() {
  const block = /BROWSER_ARGS\s*=\s*\[([\s\S]*?)\]/.exec(readFileSync(resolve(root, 'kit', 'browser', 'browser-args.ts'), 'utf8'))
  return block ? [...block[1].matchAll(/'([^']+)'|"([^"]+)"/g)].map((m) => m[1] ?? m[2]) : []
}

/** Calls `run({ browser, origins })` with dist/ and the test pages served and Chromium launched; stops both after. */
export async function standalone(run) {
  const base = Number(process.env.E2E_PORT ?? DEFAULT_PORTS.e2e)
  const origins = benchOrigins(base)
  const server = await startBenchServers(root, base)
  const extra = (process.env.EXTRA_CHROMIUM_ARGS ?? '').split(' ').filter(Boolean)
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: [...browserArgs(), ...extra] })
  try {
    return await run({ browser, origins })
  } finally {
    await browser.close()
    await server.stop()
  }
}
