/**
 * The dock as a user sees it: it never covers the record page (the page reflows
 * beside it), its title names the widget that is really loaded, and a
 * localStorage override written in the same tab applies when the dock or the tab
 * gets focus back (a `storage` event only reaches other tabs).
 */
import { expect, test, type Locator, type Page } from '@playwright/test'
import { fixtureUrl, kitOrigins, ourWidgetUrl } from '../kit/origins.ts'

const OVERRIDE_KEY = 'LocalSettings:Calling:CallingExtensions'
const dockOf = (page: Page): Locator => page.getByRole('complementary', { name: 'Calling widget' }).getByRole('region')

async function box(locator: Locator) {
  const b = await locator.boundingBox()
  if (!b) throw new Error('not visible')
  return b
}

// A laptop-sized and a larger desktop viewport: the page reflows beside the dock in every placement.
for (const [width, height] of [
  [1280, 800],
  [1500, 950],
] as const) {
  test(`at ${width}×${height} the dock never covers the record page or its timeline, in every placement, and stays above the tools bar`, async ({ page, baseURL }) => {
    await page.setViewportSize({ width, height })
    // logged in, the widget shows its keypad: the dock is at its tallest
    await page.goto(`/?widget=${encodeURIComponent(ourWidgetUrl(baseURL))}#/contacts/1`)
    const dock = dockOf(page)
    await expect(dock.getByRole('status')).toHaveText('Handshake ready')
    const timeline = page.getByRole('main').getByRole('heading', { name: 'Activity' }).locator('xpath=ancestor::section[1]')
    const toolsBar = page.getByRole('button', { name: 'Show integration tools' })
    await dock.getByRole('button', { name: 'Widget setup' }).click()
    // In the window placement the widget runs in the detached calling window; the record page shows its card.
    const card = page.getByRole('region', { name: 'Calling window' })
    for (const placement of ['Nav-bar remote (remote)', 'Calling window (window)', 'Docked widget (widget)']) {
      await page.getByLabel('Placement (iframeLocation)').selectOption({ label: placement })
      const shown = placement.endsWith('(window)') ? card : dock
      if (shown === card) await expect(card).toContainText('Not open')
      else await expect(dock.getByRole('status')).toHaveText('Handshake ready')
      // the page reflows beside the dock (re-measured until the layout settles)
      await expect(async () => {
        const d = await box(shown)
        const t = await box(timeline)
        expect(t.x + t.width, `${placement}: the timeline ends left of the dock`).toBeLessThanOrEqual(d.x)
        // the page's own content stops before the dock: nothing of it is under the dock
        const widest = await page.getByRole('main').evaluate((el) => Math.max(...[...el.querySelectorAll('section, .card, h1')].map((n) => n.getBoundingClientRect().right)))
        expect(widest, `${placement}: the record page ends left of the dock`).toBeLessThanOrEqual(d.x)
        // the whole dock is on screen, clear of the top bar and of the tools bar at the bottom
        expect(d.y, `${placement}: below the top bar`).toBeGreaterThanOrEqual((await box(page.getByRole('banner'))).height)
        expect(d.y + d.height, `${placement}: above the tools bar`).toBeLessThanOrEqual((await box(toolsBar)).y)
      }).toPass()
    }
    // hidden: the page takes the whole width again
    await dock.getByRole('button', { name: 'Hide widget' }).click()
    await expect(async () => expect((await box(timeline)).x + (await box(timeline)).width).toBeGreaterThan(width - 280)).toPass()
  })
}

test("the dock's title names the widget loaded by ?widget=, not the registered app", async ({ page, baseURL }) => {
  const url = fixtureUrl(kitOrigins(baseURL), 'demo-shaped-widget')
  await page.goto(`/?widget=${encodeURIComponent(url)}#/contacts`)
  const dock = dockOf(page)
  const host = new URL(url)
  await expect(dock.getByRole('heading', { level: 2 })).toHaveText(`Widget at ${host.host}${host.pathname.replace(/\/$/, '')}`)
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
