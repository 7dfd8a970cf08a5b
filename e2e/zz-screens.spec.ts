import { expect, test } from '@playwright/test'
import { Harness } from './kit/harness.ts'
import { fixtureUrl, kitOrigins } from './kit/origins.ts'

test('screens', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 1500, height: 950 })
  const harness = new Harness(page)
  await harness.open({ widgetUrl: fixtureUrl(kitOrigins(baseURL), 'window-only-widget'), route: '/contacts/1', placement: 'window', navigation: 'full' })
  await page.screenshot({ path: '/tmp/topo-shots/1-record-before.png' })
  await harness.pressCall('+1 617 555 0101')
  const win = await harness.callingWindow()
  await win.setViewportSize({ width: 440, height: 760 })
  const widget = await harness.widgetFrameLocator('window')
  await expect(widget.getByRole('status', { name: 'Widget status' })).toContainText('window · idle', { timeout: 15000 })
  await widget.getByRole('button', { name: 'Call', exact: true }).click()
  await expect(widget.getByRole('status', { name: 'Widget status' })).toContainText('engagement ')
  await widget.getByRole('button', { name: 'Answer' }).click()
  await harness.openRecord('companies', '1')
  await expect(page.getByRole('region', { name: 'Calling window' })).toContainText('IN_PROGRESS')
  await page.screenshot({ path: '/tmp/topo-shots/2-record-during.png' })
  await win.screenshot({ path: '/tmp/topo-shots/3-window-during.png' })
})
