import { expect, test } from '@playwright/test'
import { ORIGINS } from './origins.ts'

/**
 * The attack, in real Chromium: a page on another port of the same host (the
 * hostile origin) sets `ringside_sandbox=main` with longer paths, which the
 * browser sends before the cookie the server set (cookies ignore ports). The
 * harness's requests still reach the browser's own sandbox, never the main
 * database. The server's side of the rule: emulator/node/test/sandbox-cookie.test.ts.
 */
test('a sandbox cookie forged by another port of the host never points the harness at the main database', async ({ page, request }) => {
  await page.goto(`${ORIGINS.harness}/`)
  await page.goto(`${ORIGINS.hostile}/`)
  await page.evaluate(() => {
    for (const path of ['/_ringside', '/crm', '/']) document.cookie = `ringside_sandbox=main; path=${path}`
  })
  // The browser took the forged cookies, and sends them to the harness's port.
  expect((await page.context().cookies(`${ORIGINS.harness}/crm/v3`)).map((cookie) => cookie.value)).toContain('main')
  await page.goto(`${ORIGINS.harness}/`)
  const seen = await page.evaluate(async () => {
    const info = await (await fetch('/_ringside/v1/server')).json()
    const created = await fetch('/crm/v3/objects/tickets', {
      method: 'POST',
      headers: { authorization: 'Bearer pat-local', 'content-type': 'application/json' },
      body: JSON.stringify({ properties: { subject: 'forged-cookie probe', hs_pipeline_stage: '1' } }),
    })
    return { sandbox: info.sandbox as string | null, created: created.status }
  })
  expect(seen.sandbox).toMatch(/^r[0-9a-f]{8}-[0-9a-f]{16}-[0-9a-f]{32}$/)
  expect(seen.created).toBe(201)
  const main = await request.get(`${ORIGINS.harness}/crm/v3/objects/tickets?limit=100&properties=subject`, { headers: { authorization: 'Bearer pat-local', 'x-ringside-sandbox': 'main' } })
  expect(JSON.stringify(await main.json())).not.toContain('forged-cookie probe')
})
