import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import { ORIGINS } from './origins.ts'
import { fixtureUrl } from './support/interop-pages.ts'

/**
 * URLs from outside never become a src or href that runs script or leaves for another site
 * (shared/url/safe-url.ts, docs/urls.md): the fixture host pages' `widget` and `hostile` query parameters,
 * and a harness sink fed from the API (a timeline event's timelineIFrame URL). Every hostile value carries a
 * canary: if it ever ran, it would post 'url-canary' to the page or open a dialog.
 */

const CANARY = "top.postMessage('url-canary','*');parent.postMessage('url-canary','*');alert('url-canary')"
const HOSTILE = [
  `javascript:${CANARY}`,
  `JaVaScRiPt:${CANARY}`,
  ` javascript:${CANARY}`,
  `\tjavascript:${CANARY}`,
  `java\tscript:${CANARY}`,
  `\u0000javascript:${CANARY}`,
  `data:text/html,<script>${CANARY}</script>`,
  `data:text/html;base64,${Buffer.from(`<script>${CANARY}</script>`).toString('base64')}`,
  'vbscript:msgbox(1)',
  '//other.site.invalid/',
  '\\\\other.site.invalid\\x',
  'https://user:secret@other.site.invalid/',
  `https://other.site.invalid/${'a'.repeat(9000)}`,
]

/**
 * The fixture pages get one value of each kind the module refuses (a script scheme, its disguise with a control
 * character, a data: document, another site without a scheme): the whole corpus is the module's unit test
 * (shared/url/safe-url.test.ts); here the question is whether every page hands its parameter to the module.
 */
const HOSTILE_KINDS = [HOSTILE[0]!, HOSTILE[5]!, HOSTILE[6]!, HOSTILE[9]!]

interface Watch {
  dialogs: string[]
  offSite: string[]
}

/** Dialogs, and requests to any host but 127.0.0.1; a canary message sets window.__canary. */
async function watch(page: Page): Promise<Watch> {
  const seen: Watch = { dialogs: [], offSite: [] }
  page.on('dialog', (dialog) => {
    seen.dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.protocol.startsWith('http') && url.hostname !== '127.0.0.1') seen.offSite.push(request.url().slice(0, 200))
  })
  await page.addInitScript(() => {
    const w = window as unknown as { __canary: number }
    w.__canary = 0
    window.addEventListener('message', (event) => {
      if (event.data === 'url-canary') w.__canary++
    })
  })
  return seen
}

/**
 * Every fixture page and the URL query parameters it reads, found in its source (e2e/fixtures/<name>/main.ts):
 * the readers of e2e/support/host-page.ts. A fixture that put a parameter into a src any other way fails the
 * lint (ringside/url-sink).
 */
function urlParamsOfFixtures(): Array<readonly [string, string]> {
  const root = new URL('./fixtures/', import.meta.url)
  const found: Array<readonly [string, string]> = []
  for (const name of readdirSync(root)) {
    const source = ['main.ts', 'main.tsx'].map((file) => new URL(`${name}/${file}`, root)).find((file) => existsSync(file))
    if (!source) continue
    const text = readFileSync(source, 'utf8')
    const params = new Set<string>()
    if (/\bwidgetUrlFromQuery\(/.test(text)) params.add('widget')
    if (/\bhostileUrlFromQuery\(/.test(text)) params.add('hostile')
    for (const [, param] of text.matchAll(/\burlFromQuery\(\s*'([^']+)'/g)) params.add(param!)
    for (const param of params) found.push([name, param])
  }
  return found
}
const URL_PARAMS = urlParamsOfFixtures()

test('the fixture pages that read URL parameters are found from their sources', () => {
  expect(URL_PARAMS).toEqual(expect.arrayContaining([['plain-host', 'hostile'], ['sdk-host', 'hostile'], ['plain-host', 'widget'], ['widget-host', 'widget']]))
})

for (const [host, param] of URL_PARAMS) {
  test(`the ${host} fixture refuses a hostile ?${param}= and no canary runs`, async ({ page }) => {
    const seen = await watch(page)
    for (const value of HOSTILE_KINDS) {
      const query: Record<string, string> = { widget: fixtureUrl(ORIGINS.testWidgets, 'sdk-widget'), [param]: value }
      const label = JSON.stringify(value.slice(0, 40))
      await page.goto(fixtureUrl(ORIGINS.testPages, host, query))
      // The page has loaded (with its frames): a canary that ran has posted by now.
      await page.waitForTimeout(100)
      expect(await page.evaluate(() => (window as unknown as { __canary: number }).__canary), `canary of ${label}`).toBe(0)
      expect(seen.dialogs, label).toEqual([])
      // No frame was given the value: every frame is this page or an http(s) page on 127.0.0.1.
      for (const frame of page.frames()) expect(frame.url(), label).toMatch(/^(http:\/\/127\.0\.0\.1:\d+\/|about:blank$)/)
      await expect(page.getByRole('alert'), label).toContainText(`?${param}=`)
    }
    expect(seen.offSite).toEqual([])
  })
}

test('a plain-host with an http(s) ?hostile= still embeds it (the refusal is the rule, not a broken page)', async ({ page }) => {
  await page.goto(fixtureUrl(ORIGINS.testPages, 'plain-host', { widget: fixtureUrl(ORIGINS.testWidgets, 'sdk-widget'), hostile: fixtureUrl(ORIGINS.hostile, 'hostile') }))
  await expect.poll(() => page.frames().some((frame) => frame.url().startsWith(`${ORIGINS.hostile}/`))).toBe(true)
  await expect(page.getByRole('alert')).toHaveCount(0)
})

test('a timeline event whose timelineIFrame URL is hostile: the API refuses to store it, and the harness refuses to frame it', async ({ page }) => {
  const seen = await watch(page)
  await page.goto('/#/contacts/1')
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible({ timeout: 15_000 })

  // The API: a timelineIFrame URL and a recording URL that are not http(s) are 400, nothing stored.
  const refused = await page.evaluate(async (url) => {
    const pat = { authorization: 'Bearer pat-local', 'content-type': 'application/json' }
    const event = await fetch('/crm/v3/timeline/events', {
      method: 'POST',
      headers: pat,
      body: JSON.stringify({ eventTemplateId: '1', objectId: '1', tokens: {}, timelineIFrame: { linkLabel: 'Open', headerLabel: 'Frame', url, width: 400, height: 300 } }),
    })
    const call = await fetch('/crm/v3/objects/calls', { method: 'POST', headers: pat, body: JSON.stringify({ properties: { hs_call_recording_url: url, hs_timestamp: new Date().toISOString() } }) })
    return [event.status, await event.text(), call.status, await call.text()] as const
  }, `javascript:${CANARY}`)
  expect(refused[0], refused[1]).toBeGreaterThanOrEqual(400)
  expect(refused[2]).toBe(400)
  expect(refused[3]).toContain('INVALID_URL')

  // The page: whatever the API answers (an older store, an import, another server), a hostile URL is not framed.
  for (const url of HOSTILE.slice(0, 8)) {
    await page.route('**/_ringside/v1/timeline/events?*', (route) =>
      route.fulfill({
        json: {
          results: [
            {
              id: '900',
              eventTemplateId: '1',
              templateName: 'Hostile frame',
              timestamp: new Date().toISOString(),
              headerHtml: 'Hostile frame event',
              detailHtml: '',
              timelineIFrame: { linkLabel: 'Open hostile frame', headerLabel: 'Hostile', url, width: 400, height: 300 },
            },
          ],
        },
      }),
    )
    await page.goto(`/?run=${Math.random()}#/contacts/1`)
    const event = page.getByRole('article').filter({ hasText: 'Hostile frame event' })
    await expect(event).toBeVisible({ timeout: 15_000 })
    // The link is not offered, and the entry says why.
    await expect(event.getByText(/^Link hidden: its URL /)).toBeVisible()
    await expect(event.getByRole('button', { name: 'Open hostile frame' })).toHaveCount(0)
    await expect(page.locator('iframe[title="Hostile"]')).toHaveCount(0)
    await page.unroute('**/_ringside/v1/timeline/events?*')
  }
  await page.waitForTimeout(300)
  expect(await page.evaluate(() => (window as unknown as { __canary: number }).__canary)).toBe(0)
  expect(seen.dialogs).toEqual([])
  expect(seen.offSite).toEqual([])
})
