import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * The servers behind the three test origins, for Playwright's `webServer`:
 * the Ringside server in server mode (`npm start --dist`) on the harness port
 * and the next one (the widget origin), and scripts/serve-dist.mjs on the
 * third (the hostile origin). The server runs with --sandboxes, so each
 * test's browser context gets a fresh CRM of its own, as it would in
 * browser-only mode, and starts --fresh from a scratch folder.
 */
export function e2eWebServers(harnessPort: number, cwd?: string, startArgs = '') {
  const common = { reuseExistingServer: !process.env.CI, timeout: 30_000, stdout: 'ignore', stderr: 'pipe', ...(cwd && { cwd }) } as const
  return [
    {
      ...common,
      command: `node scripts/start.mjs --dist --sandboxes --fresh --port ${harnessPort} --data ${join(tmpdir(), `ringside-e2e-${harnessPort}`)}${startArgs}`,
      url: `http://127.0.0.1:${harnessPort}/_ringside/v1/server`,
    },
    {
      ...common,
      command: `node scripts/serve-dist.mjs ${harnessPort + 2}`,
      url: `http://127.0.0.1:${harnessPort + 2}/`,
    },
  ]
}
