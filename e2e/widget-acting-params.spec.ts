import { expect, test } from '@playwright/test'
import { ORIGINS } from './origins.ts'

/**
 * The reference widget's parameters that act with no click (autoLogin,
 * incoming) apply only when automation drives the browser
 * (`navigator.webdriver`, which Playwright sets); otherwise a web site that
 * opens the harness with a local `?widget=` URL carrying them could make the
 * widget log in and take calls that the CRM logs. Walked both ways, on the
 * real widget page.
 */
const ACTING = '/widget/?autoLogin=1&incoming=%2B15551234567&incomingAfterMs=0'

test('driven by automation, autoLogin and incoming apply: the widget starts logged in, with no notice', async ({ page }) => {
  await page.goto(`${ORIGINS.widget}${ACTING}`)
  await expect(page.locator('.widget')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'You are logged out' })).toHaveCount(0)
  await expect(page.getByRole('note', { name: 'Ignored URL parameters' })).toHaveCount(0)
})

test('not driven by automation, autoLogin and incoming are ignored and the widget says so; it stays logged out', async ({ page }) => {
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false }))
  await page.goto(`${ORIGINS.widget}${ACTING}`)
  await expect(page.getByRole('note', { name: 'Ignored URL parameters' })).toContainText('Ignored autoLogin and incoming')
  await expect(page.getByRole('heading', { name: 'You are logged out' })).toBeVisible()
  // Past the incoming call's delay, still no call.
  await page.waitForTimeout(1500)
  await expect(page.getByRole('heading', { name: 'You are logged out' })).toBeVisible()
})
