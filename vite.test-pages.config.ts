import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { existsSync, readdirSync } from 'node:fs'
import { resolve } from 'node:path'

const root = import.meta.dirname

/** Where the test pages are built: never served by Ringside, never in the package (package.json `files`). */
export const TEST_PAGES_DIR = 'dist-test'

/**
 * The e2e fixture pages (widgets on the npm SDK, plain and SDK hosts, a
 * hostile frame, an OAuth callback, browser-only CRM pages), built apart from
 * the product into dist-test/e2e/fixtures/<name>/. Only the test runs serve
 * them (tools/test/serve-dist.mjs on the test origins of e2e/origins.ts, the
 * bench), never the Ringside server. `public/` (MSW's worker) is copied too:
 * the fixtures that run MSW register it on their own origin.
 */
function fixtures(): Record<string, string> {
  const input: Record<string, string> = {}
  const dir = resolve(root, 'e2e/fixtures')
  for (const name of readdirSync(dir)) {
    const file = resolve(dir, name, 'index.html')
    if (existsSync(file)) input[`fixture-${name}`] = file
  }
  return input
}

export default defineConfig({
  root,
  appType: 'mpa',
  plugins: [react()],
  worker: { format: 'es' },
  build: {
    outDir: TEST_PAGES_DIR,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    rolldownOptions: { input: fixtures() },
  },
})
