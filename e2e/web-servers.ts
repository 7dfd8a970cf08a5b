import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The pretend app's OAuth callback (a test page): http is only taken on localhost, so it is named so. */
export function oauthCallbackUrl(harnessPort: number): string {
  return `http://localhost:${harnessPort + 3}/e2e/fixtures/oauth-callback/`
}

/** The data folder of the e2e server on `harnessPort` (the CLI's data commands find that server by it). */
export function e2eDataDir(harnessPort: number): string {
  return join(tmpdir(), `ringside-e2e-${harnessPort}`)
}

/**
 * The servers behind the test origins (e2e/origins.ts), for Playwright's
 * `webServer`: the Ringside server in server mode (`npm start --dist`) on
 * the harness port and the next one (the widget origin), and
 * tools/test/serve-dist.mjs serving the test pages (dist-test/) on +2 (the
 * hostile origin), +3 and +4. The server runs with --sandboxes, so each
 * test's browser context gets a fresh CRM of its own, as it would in
 * browser-only mode, and starts --fresh from a scratch folder. It lets the
 * test pages origin frame its pages (a host fixture framing the reference
 * widget) and registers the test pages' OAuth callback, as a user would for
 * their own app.
 */
export function e2eWebServers(harnessPort: number, cwd?: string, startArgs = '') {
  const common = { reuseExistingServer: !process.env.CI, timeout: 30_000, stdout: 'ignore', stderr: 'pipe', ...(cwd && { cwd }) } as const
  const testPages = `http://127.0.0.1:${harnessPort + 3}`
  return [
    {
      ...common,
      command:
        `node tools/start.mjs --dist --sandboxes --fresh --port ${harnessPort} --data ${e2eDataDir(harnessPort)}` +
        ` --frame-ancestor ${testPages} --redirect-url ${oauthCallbackUrl(harnessPort)}${startArgs}`,
      url: `http://127.0.0.1:${harnessPort}/_ringside/v1/server`,
    },
    {
      ...common,
      command: `node tools/test/serve-dist.mjs --root dist-test ${harnessPort + 2} ${harnessPort + 3} ${harnessPort + 4}`,
      url: `http://127.0.0.1:${harnessPort + 2}/`,
    },
  ]
}
