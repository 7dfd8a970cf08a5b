import { expect, test, type Route } from '@playwright/test'
import { ORIGINS } from './origins.ts'

/**
 * Fail closed: a harness page that the Ringside server served (its page
 * response carries the server's Server-Timing mark) never falls back to
 * browser-only mode, however long the server takes to answer: it waits,
 * saying which server and since when, and uses the server once it answers.
 * Here the page's API probe is held back well past the 3 s that would make a
 * static-host page start its own database.
 */
test('a server-served page whose API stalls waits with a sentence and never starts a database of its own; the server answering, it uses the server', async ({ page }) => {
  let released = false
  const held: Route[] = []
  await page.route(`${ORIGINS.harness}/_ringside/v1/server`, async (route) => {
    if (released) await route.continue()
    else held.push(route)
  })
  const response = await page.goto('/#/contacts')
  expect(response?.headers()['server-timing']).toMatch(/^ringside-server;/)

  const waiting = page.getByRole('status').filter({ hasText: 'Waiting for the Ringside server at' })
  await expect(waiting).toContainText(`Waiting for the Ringside server at ${ORIGINS.harness}: no answer since`, { timeout: 10_000 })
  await expect(waiting).toContainText('Is npm start (or ringside start) still running?')
  // Well past the probe's 3 s, twice over: still waiting, no service worker (browser-only mode's API), no app.
  await page.waitForTimeout(3_500)
  await expect(waiting).toBeVisible()
  expect(held.length).toBeGreaterThan(1)
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0)
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0)

  released = true
  for (const route of held.splice(0)) await route.continue().catch(() => undefined) // the page aborted earlier tries
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible({ timeout: 15_000 })
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0)
})
