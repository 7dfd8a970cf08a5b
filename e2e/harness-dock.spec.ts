/**
 * The dock as a user sees it: it never covers the record page (the page reflows
 * beside it), its title names the widget that is really loaded, and a
 * localStorage override written in the same tab applies when the dock or the tab
 * gets focus back (a `storage` event only reaches other tabs).
 */
import { expect, test, type Locator, type Page } from '@playwright/test'
import { fixtureUrl, kitOrigins, ourWidgetUrl } from './kit/origins.ts'

const OVERRIDE_KEY = 'LocalSettings:Calling:CallingExtensions'
const dockOf = (page: Page): Locator => page.getByRole('complementary', { name: 'Calling widget' }).getByRole('region')

async function box(locator: Locator) {
  const b = await locator.boundingBox()
  if (!b) throw new Error('not visible')
  return b
}

test('the dock never covers the record page or its timeline, in either docked placement', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto('/#/contacts/1')
  const dock = dockOf(page)
  await expect(dock.getByRole('status')).toHaveText('Handshake ready')
  const timeline = page.getByRole('main').getByRole('heading', { name: 'Activity' }).locator('xpath=ancestor::section[1]')
  await dock.getByRole('button', { name: 'Widget setup' }).click()
  for (const placement of ['Nav-bar remote (remote)', 'Docked widget (widget)']) {
    await dock.getByLabel('Placement (iframeLocation)').selectOption({ label: placement })
    await expect(dock.getByRole('status')).toHaveText('Handshake ready')
    const d = await box(dock)
    const t = await box(timeline)
    expect(t.x + t.width, `${placement}: the timeline ends left of the dock`).toBeLessThanOrEqual(d.x)
    const main = await box(page.getByRole('main'))
    // the page's own content stops before the dock: nothing of it is under the dock
    const widest = await page.getByRole('main').evaluate((el) => Math.max(...[...el.querySelectorAll('section, .card, h1')].map((n) => n.getBoundingClientRect().right)))
    expect(widest, `${placement}: ${JSON.stringify(main)}`).toBeLessThanOrEqual(d.x)
  }
  // hidden: the page takes the whole width again
  await dock.getByRole('button', { name: 'Hide widget' }).click()
  await expect(async () => expect((await box(timeline)).x + (await box(timeline)).width).toBeGreaterThan(1000)).toPass()
})

test("the dock's title names the widget loaded by ?widget=, not the registered app", async ({ page, baseURL }) => {
  const url = fixtureUrl(kitOrigins(baseURL), 'demo-shaped-widget')
  await page.goto(`/?widget=${encodeURIComponent(url)}#/contacts`)
  const dock = dockOf(page)
  const host = new URL(url)
  await expect(dock.getByRole('heading', { level: 2 })).toHaveText(`Widget at ${host.host}${host.pathname}`)
  await expect(dock).toContainText('Loaded instead of the registered app "Ringside reference widget"')
  // with a name in the override, that name
  await page.evaluate(([key, u]) => localStorage.setItem(key!, JSON.stringify({ url: u, name: 'Acme Dialer (dev)' })), [OVERRIDE_KEY, url])
  await page.goto('/#/contacts')
  await expect(dockOf(page).getByRole('heading', { level: 2 })).toHaveText('Acme Dialer (dev)')
})

test('an override written in this very tab applies when the dock gets focus back', async ({ page, baseURL }) => {
  await page.goto('/#/contacts')
  const dock = dockOf(page)
  await expect(dock.getByRole('status')).toHaveText('Handshake ready')
  const fixture = fixtureUrl(kitOrigins(baseURL), 'demo-shaped-widget')
  // as in the devtools console of this tab: no storage event here
  await page.evaluate(([key, u]) => localStorage.setItem(key!, JSON.stringify({ url: u })), [OVERRIDE_KEY, fixture])
  await page.waitForTimeout(300)
  await expect(page.locator('#hubspot-calling-extension-iframe')).toHaveAttribute('src', ourWidgetUrl(baseURL, {}).replace(/\?$/, '').replace(/\/\?.*$/, '/'))
  await dock.hover()
  await expect(page.locator('#hubspot-calling-extension-iframe')).toHaveAttribute('src', fixture)
  await expect(dock.getByRole('status')).toHaveText('Handshake ready')
  // the Setup field says how it works
  await dock.getByRole('button', { name: 'Widget setup' }).click()
  await expect(dock).toContainText('this tab switches when it or the dock next gets focus')
})
