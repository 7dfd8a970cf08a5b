/**
 * The kit opens the harness with `?widget=` and is the person at the harness:
 * for a widget URL off this machine (here an https one) it presses "Load
 * this widget", so check-widget and every spec still test remote widgets.
 * Playwright's route serves the sdk-widget fixture under that remote name.
 */
import type { Page } from '@playwright/test'
import { expect, test } from '../kit/fixtures.ts'
import { ORIGINS } from './origins.ts'

const REMOTE = 'https://widgets.remote.test'

async function serveRemote(page: Page) {
  await page.context().route(`${REMOTE}/**`, async (route) => {
    const upstream = new URL(route.request().url())
    await route.fulfill({ response: await route.fetch({ url: `${ORIGINS.testWidgets}${upstream.pathname}${upstream.search}` }) })
  })
}

test('the kit loads a remote https widget through the dock’s confirmation and completes the handshake', async ({ page, harness }) => {
  await serveRemote(page)
  const widgetUrl = `${REMOTE}/e2e/fixtures/sdk-widget/`
  await harness.open({ widgetUrl, route: '/contacts/1', waitFor: 'handshake' })
  await expect(harness.widgetIframe).toHaveAttribute('src', widgetUrl)
  await expect(page.getByRole('alertdialog')).toHaveCount(0)
})

test('in the calling window too: the kit confirms there, where the widget runs', async ({ page, harness }) => {
  await serveRemote(page)
  const widgetUrl = `${REMOTE}/e2e/fixtures/sdk-widget/`
  await harness.open({ widgetUrl, route: '/contacts/1', placement: 'window', waitFor: 'handshake' })
  const window = await harness.widgetPage()
  expect(window).not.toBe(page)
  await expect(window.locator('iframe')).toHaveAttribute('src', widgetUrl)
})
