import { expect, test } from '@playwright/test'
import { ORIGINS } from './origins.ts'

/**
 * A page on another origin, in a real browser, tries to change the local
 * Ringside: a plain form POST and a `no-cors` fetch to its reset route. Both
 * are refused (403) and the data stays as it was. The server itself checks
 * the headers the browser sends (Origin, Sec-Fetch-Site, content type).
 */

const SANDBOX = { 'x-ringside-sandbox': 'main' }

test('a form and a no-cors fetch from another origin cannot reset the server', async ({ page, request }) => {
  const marker = `cross-site-${Date.now()}@example.com`
  const created = await request.post(`${ORIGINS.harness}/crm/v3/objects/contacts`, {
    headers: { authorization: 'Bearer pat-local', ...SANDBOX },
    data: { properties: { email: marker } },
  })
  expect(created.status()).toBe(201)
  const id = ((await created.json()) as { id: string }).id
  const stillThere = async () => (await request.get(`${ORIGINS.harness}/crm/v3/objects/contacts/${id}`, { headers: { authorization: 'Bearer pat-local', ...SANDBOX } })).status()

  // A page of the third origin without the harness's Content-Security-Policy (its form-action would stop the form first).
  await page.goto(`${ORIGINS.hostile}/attacker-page`)
  const status = await page.evaluate(async (target) => {
    await fetch(target, { method: 'POST', mode: 'no-cors', body: 'x=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }).catch(() => {})
    return 'sent'
  }, `${ORIGINS.harness}/_ringside/v1/reset`)
  expect(status).toBe('sent')
  expect(await stillThere()).toBe(200)

  const answer = page.waitForResponse((response) => response.url().endsWith('/_ringside/v1/reset'))
  await page.evaluate((target) => {
    const form = document.createElement('form')
    form.method = 'POST'
    form.action = target
    document.body.append(form)
    form.submit()
  }, `${ORIGINS.harness}/_ringside/v1/reset`)
  const response = await answer
  expect(response.status()).toBe(403)
  expect(((await response.json()) as { category: string }).category).toBe('FORBIDDEN')
  expect(await stillThere()).toBe(200)
})
