/**
 * HubSpot's own demos/demo-minimal-js (github.com/HubSpot/calling-extensions-sdk),
 * unchanged and offline: it loads the SDK from jsDelivr (@latest/dist/main.js) with a
 * plain script tag and uses window.default and window.Constants; the kit answers the
 * CDN URL from Ringside. Its other CDN files (jQuery, Bootstrap, fonts) fail as they
 * would offline; the demo does not need them to place a call.
 *
 * The demo is not part of this repository: $CALLING_SDK_REPO names a checkout, and the
 * demo is built there by its own build (`npm ci && npm run build` in
 * demos/demo-minimal-js, which writes bin/). Without it the test is skipped, saying so.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '../kit/fixtures.ts'
import { blockInternet } from './support/offline.ts'

const repo = process.env.CALLING_SDK_REPO
const bin = repo ? join(repo, 'demos', 'demo-minimal-js', 'bin') : ''
const missing = !repo
  ? 'set CALLING_SDK_REPO to a checkout of github.com/HubSpot/calling-extensions-sdk to run HubSpot demo-minimal-js'
  : !existsSync(join(bin, 'demo-minimal-js.html'))
    ? `build the demo first: cd ${join(repo, 'demos', 'demo-minimal-js')} && npm ci && npm run build`
    : null

test('HubSpot demo-minimal-js, loading the SDK from jsDelivr @latest, logs a call offline, unchanged', async ({ page, harness, origins, messages, sdkCdn }) => {
  test.skip(missing !== null, missing ?? '')
  const base = `${origins.widget}/hubspot-demo-minimal-js/`
  // The demo's own build output, as its dev server serves it (bin/ at the root).
  await page.context().route(`${base}**`, (route) => {
    const path = new URL(route.request().url()).pathname.slice(new URL(base).pathname.length)
    const file = path === '' ? 'demo-minimal-js.html' : path
    if (!/^[\w.-]+$/.test(file) || !existsSync(join(bin, file))) return route.fulfill({ status: 404, body: 'Not found' })
    return route.fulfill({ contentType: file.endsWith('.js') ? 'text/javascript' : 'text/html', body: readFileSync(join(bin, file)) })
  })
  await blockInternet(page.context())

  await harness.open({ widgetUrl: base, route: '/contacts/1', waitFor: 'handshake' })
  const demo = harness.widget
  await demo.locator('#login').click()
  await messages.expectMessage('LOGGED_IN', undefined, { direction: 'from-widget' })
  await harness.pressCall('+1 617 555 0101')
  await messages.expectMessage('DIAL_NUMBER', undefined, { direction: 'to-widget' })
  await demo.locator('#outgoingcall').click()
  await messages.expectMessage('CREATE_ENGAGEMENT_SUCCEEDED', undefined, { direction: 'to-widget' })
  await demo.locator('#answercall').click()
  await page.waitForTimeout(300)
  await demo.locator('#endcall').click()
  await demo.locator('#completecall').click()
  await messages.expectMessage('UPDATE_ENGAGEMENT_SUCCEEDED', undefined, { direction: 'to-widget' })

  const call = (await harness.engagements()).find((c) => c.properties.hs_call_body === 'Resolved issue')
  expect(call?.properties.hs_call_title).toBe('Demo call')
  expect(call?.properties.hs_call_status).toBe('COMPLETED')
  expect(Number(call?.properties.hs_call_duration)).toBeGreaterThanOrEqual(300)
  expect(sdkCdn!.problems()).toEqual([])
  expect(sdkCdn!.served()).toBe(1)
})
