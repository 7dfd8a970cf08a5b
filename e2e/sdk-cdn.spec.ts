/**
 * The calling SDK at its versioned URL: a widget written against the CDN
 * build (a plain <script> tag, the global `CallingExtensionsSdk`) loads
 * /sdk/<version>/calling-extensions.umd.js from the Ringside server and
 * completes a call in the harness. The widget page itself is handed to the
 * browser on the widget origin by the test; the SDK is fetched from the
 * server for real.
 */
import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { expect, test } from '../kit/fixtures.ts'
import { fixtureUrl } from '../kit/origins.ts'
import { UNPACKED_RELEASES_HINT, unpackedReleases } from '../shared/sdk-cdn/unpacked-releases.ts'
import { ORIGINS } from './origins.ts'
import { blockInternet } from './support/offline.ts'

const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version
const widgetUrl = `${ORIGINS.widget}/cdn-widget/`

const WIDGET_PAGE = `<!doctype html>
<meta charset="utf-8"><title>CDN widget</title>
<script src="/sdk/${version}/calling-extensions.umd.js"></script>
<p id="status">loading</p>
<script>
  const status = (text) => (document.getElementById('status').textContent = text)
  let call = null
  const sdk = new CallingExtensionsSdk.default({
    eventHandlers: {
      onReady: () => { sdk.initialized({ isLoggedIn: true, isAvailable: true }); status('ready') },
      onDialNumber: (data) => {
        call = { externalCallId: 'cdn-' + Date.now(), toNumber: data.phoneNumber }
        sdk.outgoingCall({ toNumber: data.phoneNumber, fromNumber: '+15550100', createEngagement: true, externalCallId: call.externalCallId, callStartTime: Date.now() })
        status('ringing')
      },
      onCreateEngagementSucceeded: (data) => {
        call.engagementId = data.engagementId
        sdk.callAnswered({ externalCallId: call.externalCallId })
        setTimeout(() => {
          sdk.callEnded({ externalCallId: call.externalCallId, engagementId: call.engagementId, callEndStatus: CallingExtensionsSdk.callEndStatus.COMPLETED })
          sdk.callCompleted({ externalCallId: call.externalCallId, engagementId: call.engagementId, hideWidget: false, engagementProperties: { hs_call_body: 'Logged through the CDN build' } })
          status('completed ' + call.externalCallId)
        }, 200)
      },
    },
  })
</script>`

test.use({ widgetUrl })

test('a widget loading the SDK from /sdk/<version>/ with a plain script tag completes a call', async ({ page, harness, messages }) => {
  await page.route(`${widgetUrl}**`, (route) => route.fulfill({ contentType: 'text/html', body: WIDGET_PAGE }))
  await harness.open({ route: '/contacts/1', waitFor: 'handshake' })
  await harness.pressCall('+1 617 555 0101')
  await messages.waitForSequence(['DIAL_NUMBER', 'OUTGOING_CALL_STARTED', 'CALL_ANSWERED', 'CALL_ENDED', 'CALL_COMPLETED'])
  const frame = await harness.widgetFrame()
  await expect(frame.locator('#status')).toContainText('completed cdn-')
  const externalCallId = (await frame.locator('#status').textContent())!.replace('completed ', '')
  await expect.poll(async () => (await harness.engagements({ externalCallId })).length).toBe(1)
})

test('the SDK URL: the package version and latest are served, other versions are not', async ({ request }) => {
  for (const path of [`/sdk/${version}/calling-extensions.js`, '/sdk/latest/calling-extensions.js', `/sdk/${version}/calling-extensions.umd.js`]) {
    const response = await request.get(`${ORIGINS.harness}${path}`)
    expect(response.status(), path).toBe(200)
    expect(response.headers()['content-type']).toContain('javascript')
  }
  const esm = await (await request.get(`${ORIGINS.harness}/sdk/${version}/calling-extensions.js`)).text()
  expect(esm).toMatch(/export\s*\{/)
  const other = await request.get(`${ORIGINS.harness}/sdk/0.0.1/calling-extensions.js`)
  expect(other.status()).toBe(404)
  expect(await other.text()).toContain(`/sdk/${version}/`)
})

// --- the npm package's CDN URLs (jsDelivr, unpkg), answered offline -----------------

const SDK = '@hubspot/calling-extensions-sdk'
const jsdelivr = (version: string) => `https://cdn.jsdelivr.net/npm/${SDK}@${version}/dist/main.js`

test('a widget loading the SDK from jsDelivr by a plain script tag uses window.default and window.Constants and logs a call, offline', async ({ page, harness, origins, sdkCdn }) => {
  // Nothing leaves the machine: any request to the internet fails the test.
  await blockInternet(page.context())
  await harness.open({ widgetUrl: fixtureUrl(origins, 'cdn-script-widget'), route: '/contacts/1', waitFor: 'handshake' })
  await harness.pressCall('+1 617 555 0101')
  const widget = harness.widget
  await widget.getByRole('button', { name: 'Call', exact: true }).click()
  await expect(widget.getByRole('status', { name: 'Widget status' })).toContainText('engagement ')
  await widget.getByRole('button', { name: 'Answer' }).click()
  await page.waitForTimeout(200)
  await widget.getByRole('button', { name: 'Hang up' }).click()
  await widget.getByLabel('Notes').fill('Logged through jsDelivr, offline')
  await widget.getByRole('button', { name: 'Save call' }).click()
  await expect(widget.getByRole('status', { name: 'Widget status' })).toHaveAttribute('data-saved', 'yes')
  const calls = await harness.engagements()
  const call = calls.find((c) => c.properties.hs_call_body === 'Logged through jsDelivr, offline')
  expect(call?.properties.hs_call_status).toBe('COMPLETED')
  expect(Number(call?.properties.hs_call_duration)).toBeGreaterThanOrEqual(200)
  expect(sdkCdn!.served()).toBe(1)
  expect(sdkCdn!.problems()).toEqual([])
})

test('an SDK version Ringside does not serve: one sentence naming the served ones, from the server and from the kit', async ({ request, harness, origins, sdkCdn }) => {
  const response = await request.get(`${ORIGINS.harness}/sdk/npm/${SDK}@9.9.9/dist/main.js`)
  expect(response.status()).toBe(404)
  const body = (await response.text()).trim()
  expect(body).toBe(`Ringside serves ${SDK} 0.9.0, 0.9.1, 0.9.2, 0.9.3, 0.9.4, 0.9.5, 0.9.6, 0.9.7 (and latest = 0.9.7, or a range such as 0.9), not "9.9.9".`)
  expect((await request.get(`${ORIGINS.harness}/sdk/npm/${SDK}@0.8.0/dist/main.js`)).status()).toBe(404)

  await harness.open({ widgetUrl: fixtureUrl(origins, 'cdn-unknown-sdk-widget'), route: '/contacts/1', waitFor: 'shell' })
  await expect.poll(() => sdkCdn!.problems()).toEqual([`The widget loads the calling SDK from ${jsdelivr('9.9.9')}, but ${body}`])
})

/** What a classic script adds to a fresh window (a blank test page on a test origin): each new global, its property descriptor and shape. */
async function globalsAfterScript(page: Page, script: { url?: string; content?: string }) {
  await page.goto(`${ORIGINS.testWidgets}/e2e/fixtures/blank/`)
  const before = await page.evaluate(() => Object.getOwnPropertyNames(window))
  const errors: string[] = []
  // Chromium words an inline script's uncaught error without "Uncaught ".
  const onError = (error: Error) => errors.push(`${error.name}: ${error.message}`.replace(/^Uncaught /, ''))
  page.on('pageerror', onError)
  // A script that throws still loads; one that fails to load rejects.
  await page.addScriptTag(script)
  page.off('pageerror', onError)
  const added = await page.evaluate((names) => {
    const known = new Set(names)
    const methods = (cls: { prototype?: object }) => {
      const found: string[] = []
      for (let proto = cls.prototype ?? null; proto && Object.getPrototypeOf(proto) !== null; proto = Object.getPrototypeOf(proto) as object) {
        for (const name of Object.getOwnPropertyNames(proto)) {
          const d = Object.getOwnPropertyDescriptor(proto, name)!
          if (name !== 'constructor' && typeof d.value === 'function') found.push(name)
        }
      }
      // A method a release does not have is shadowed by an own `undefined` on the subclass.
      return [...new Set(found)].filter((name) => typeof (cls.prototype as Record<string, unknown>)[name] === 'function').sort()
    }
    return Object.getOwnPropertyNames(window)
      .filter((name) => !known.has(name))
      .map((name) => {
        const d = Object.getOwnPropertyDescriptor(window, name)!
        const value = (window as unknown as Record<string, unknown>)[name]
        return {
          name,
          descriptor: { enumerable: d.enumerable, writable: d.writable, configurable: d.configurable, accessor: 'get' in d },
          type: typeof value,
          ...(typeof value === 'function' && { methods: methods(value as { prototype?: object }) }),
          ...(typeof value === 'object' && { json: JSON.parse(JSON.stringify(value)) as unknown }),
        }
      })
      .sort((a, b) => (a.name < b.name ? -1 : 1))
  }, before)
  return { added, esModule: await page.evaluate(() => '__esModule' in window), errors }
}

/**
 * The served file against the package's own, loaded the same way: the same globals
 * with the same descriptors, types, Constants and send methods, and the same
 * uncaught error. Known differences: IFrameManager (the package's host side) is
 * named but refuses to construct in Ringside, so its methods are not compared;
 * `destroy()` is Ringside's own, `onMessageHandler` the package's internal listener.
 */
async function expectSameGlobals(page: Page, npmSource: string, version: string) {
  const npm = await globalsAfterScript(page, { content: npmSource })
  const ours = await globalsAfterScript(page, { url: `${ORIGINS.harness}/sdk/npm/${SDK}@${version}/dist/main.js` })
  const comparable = (globals: typeof ours.added) =>
    globals.map((g) => (g.name === 'IFrameManager' ? { ...g, methods: [] } : g.name === 'default' ? { ...g, methods: g.methods!.filter((m) => m !== 'onMessageHandler' && m !== 'destroy') } : g))
  expect(comparable(ours.added), version).toEqual(comparable(npm.added))
  expect(ours.errors, version).toEqual(npm.errors)
  expect(ours.esModule, version).toBe(npm.esModule)
  return ours
}

test('the served dist/main.js adds exactly the globals npm’s dist/main.js adds, with the same shapes', async ({ page }) => {
  const ours = await expectSameGlobals(page, readFileSync(new URL('../node_modules/@hubspot/calling-extensions-sdk/dist/main.js', import.meta.url), 'utf8'), '0.9.7')
  expect(ours.added.map((g) => g.name)).toEqual(['Constants', 'IFrameManager', 'default'])
  expect(ours.errors).toEqual([])
  expect(ours.esModule).toBe(false)
})

const unpacked = unpackedReleases()

test('every release in $CALLING_SDK_RELEASES (unpacked npm tarballs) against the served file of the same version', async ({ page }) => {
  test.skip(unpacked.versions.length === 0, UNPACKED_RELEASES_HINT)
  for (const version of unpacked.versions) await expectSameGlobals(page, unpacked.mainScript(version), version)
})

test('each release behaves as its own dist/main.js: 0.9.0 to 0.9.2 are CommonJS (a script tag throws), 0.9.3 on defines the globals', async ({ page }) => {
  for (const version of ['0.9.0', '0.9.2']) {
    const ours = await globalsAfterScript(page, { url: `${ORIGINS.harness}/sdk/npm/${SDK}@${version}/dist/main.js` })
    expect(ours.added, version).toEqual([])
    expect(ours.errors, version).toEqual(['ReferenceError: module is not defined'])
  }
  for (const version of ['0.9.3', '0.9.5']) {
    const ours = await globalsAfterScript(page, { url: `${ORIGINS.harness}/sdk/npm/${SDK}@${version}/dist/main.js` })
    expect(ours.added.map((g) => g.name), version).toEqual(['Constants', 'IFrameManager', 'default'])
    const constants = ours.added.find((g) => g.name === 'Constants')!.json as { VERSION: string; messageType: Record<string, string> }
    expect(constants.VERSION).toBe(version === '0.9.3' ? '0.9.3-beta.0' : '0.9.4')
    expect('CALL_TRANSFERRED' in constants.messageType).toBe(false)
  }
})

test('dist/main.esm.js (and jsDelivr’s /+esm) exports default, Constants and IFrameManager', async ({ page }) => {
  await page.goto(`${ORIGINS.testWidgets}/e2e/fixtures/blank/`)
  const exported = await page.evaluate(async (url) => {
    const module = (await import(url)) as Record<string, unknown>
    return { names: Object.keys(module).sort(), version: (module.Constants as { VERSION: string }).VERSION, type: typeof module.default }
  }, `${ORIGINS.harness}/sdk/npm/${SDK}@0.9.4/dist/main.esm.js`)
  expect(exported).toEqual({ names: ['Constants', 'IFrameManager', 'default'], version: '0.9.4-beta.0', type: 'function' })
})
