#!/usr/bin/env node
// Saves the manual's screenshots to docs/screenshots/*.png from the production
// build, served in server mode (`npm start --dist`, fresh data in a scratch
// folder): a contact record page (properties, timeline with a call and a custom
// timeline event, the docked widget, logged in) and the developer panels.
//
// Usage: npx vite build && node tools/docs/screenshots.mjs
// Env: SCREENSHOT_PORT (default DEFAULT_PORTS.e2e, shared/ports.mjs; the widget is served on port + 1),
//      CHROMIUM_PATH (default /usr/bin/chromium).
// If something already listens on the port, it is assumed to serve this
// repo's dist/ (e.g. a running `npm start -- --dist`) and is reused.
import { spawn } from 'node:child_process'
import { mkdir, mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium } from 'playwright'
import { DEFAULT_PORTS } from '../../shared/ports.mjs'

const repo = resolve(import.meta.dirname, '../..')
const outDir = resolve(repo, 'docs/screenshots')
const port = Number(process.env.SCREENSHOT_PORT ?? DEFAULT_PORTS.e2e)
const base = `http://127.0.0.1:${port}`
const widgetUrl = `http://127.0.0.1:${port + 1}/widget/?autoLogin=1&outcome=answer&answerAfterMs=800`

async function listening(url) {
  try {
    await fetch(url)
    return true
  } catch {
    return false
  }
}

async function startServer() {
  if (await listening(`${base}/`)) return undefined
  const data = await mkdtemp(join(tmpdir(), 'ringside-screenshots-'))
  const server = spawn(process.execPath, [resolve(repo, 'tools/start.mjs'), '--dist', '--fresh', '--port', String(port), '--data', data], {
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  for (let i = 0; i < 300 && !(await listening(`${base}/`)); i++) await new Promise((r) => setTimeout(r, 100))
  return server
}

/** Open the harness (with our widget, logged in) at a hash route, once the app shows. */
async function open(page, hash) {
  await page.goto(`${base}/?widget=${encodeURIComponent(widgetUrl)}${hash}`)
  await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 20_000 })
}

/** In the page: fetch an API path, returning the JSON body or throwing with the error body. */
async function apiCall(page, path, init) {
  return page.evaluate(
    async ({ path, init }) => {
      const response = await fetch(path, init)
      if (!response.ok) throw new Error(`${response.status} ${path}: ${await response.text()}`)
      return response.json()
    },
    { path, init },
  )
}

/** A timeline event template (developer API key). */
async function createTemplate(page) {
  const template = await apiCall(page, '/crm/v3/timeline/1001/event-templates?hapikey=dev-key-local', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Webinar attendance',
      objectType: 'contacts',
      headerTemplate: 'Attended **{{webinar}}** for {{minutes}} minutes',
      detailTemplate:
        'Registered on {{#formatDate registeredAt format="date"}}{{/formatDate}}.\n\nQuestions asked:\n\n{{#each extraData.questions}}- {{this}}\n{{/each}}',
      tokens: [
        { name: 'webinar', label: 'Webinar', type: 'string' },
        { name: 'minutes', label: 'Minutes attended', type: 'number' },
        { name: 'registeredAt', label: 'Registered at', type: 'date' },
      ],
    }),
  })
  return template.id
}

/** An event of that template on Maria Garcia's record, with the app's OAuth access token. */
async function createEvent(page, templateId, accessToken) {
  await apiCall(page, '/crm/v3/timeline/events', {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      eventTemplateId: templateId,
      objectId: '1',
      tokens: { webinar: 'Calling integrations 101', minutes: 47, registeredAt: Date.now() - 6 * 86_400_000 },
      extraData: { questions: ['Can calls be logged from a ticket?', 'Is the recording stored by the CRM?'] },
      timelineIFrame: { linkLabel: 'Watch the replay', headerLabel: 'Webinar replay', url: 'https://example.com/replay', width: 640, height: 400 },
    }),
  })
}

/** A square PNG icon, drawn in the page, uploaded through the App panel. */
async function uploadIcon(page) {
  await go(page, '#/developer/app')
  const png = await page.evaluate(async () => {
    const canvas = document.createElement('canvas')
    canvas.width = 64
    canvas.height = 64
    const c = canvas.getContext('2d')
    c.fillStyle = '#5b3fa6'
    c.beginPath()
    c.arc(32, 32, 30, 0, Math.PI * 2)
    c.fill()
    c.fillStyle = '#ffffff'
    c.font = 'bold 34px sans-serif'
    c.textAlign = 'center'
    c.textBaseline = 'middle'
    c.fillText('R', 32, 34)
    const blob = await new Promise((r) => canvas.toBlob(r, 'image/png'))
    return Array.from(new Uint8Array(await blob.arrayBuffer()))
  })
  await page.getByLabel('Upload an icon').setInputFiles({ name: 'ringside-icon.png', mimeType: 'image/png', buffer: Buffer.from(png) })
  await page.getByRole('img', { name: 'Current app icon' }).waitFor()
}

/**
 * Go to a hash route in the loaded harness (no reload: the emulated database
 * saves to IndexedDB shortly after each change, and a reload right after a
 * change could come first).
 */
async function go(page, hash) {
  await page.evaluate((h) => {
    window.location.hash = h
  }, hash)
  await page.getByRole('navigation', { name: 'Main' }).waitFor()
}

/** A developer panel, with the widget minimized so the whole panel shows. */
async function openPanel(page, hash) {
  await go(page, hash)
  await minimizeWidget(page)
}

async function setWidgetMinimized(page, minimized) {
  const toggle = page.getByRole('button', { name: /^(Minimize|Restore)/ })
  await toggle.waitFor({ timeout: 15_000 })
  const isMinimized = /^Restore/.test((await toggle.textContent()) ?? '')
  if (isMinimized !== minimized) await toggle.click()
}

const minimizeWidget = (page) => setWidgetMinimized(page, true)

async function shoot(page, name) {
  await page.waitForTimeout(400)
  const path = resolve(outDir, `${name}.png`)
  await page.screenshot({ path })
  console.log(`saved ${path}`)
}

/**
 * A call with our widget (dial, answer, hang up, notes, save) with, while it is talking, a second
 * CALL_ANSWERED for it carrying another call's engagementId (posted from the widget's frame: the
 * finding to show), and the Ladder view of the call alone in the inspector, in a tall window.
 */
async function ladderShot(page) {
  // One press: the reference widget places the call on DIAL_NUMBER.
  await page.getByRole('button', { name: 'Call +1 617 555 0101' }).click()
  const widget = page.frameLocator('.calling-dock iframe')
  await widget.getByRole('region', { name: 'Call in progress' }).waitFor({ timeout: 15_000 })
  await page.waitForTimeout(1200)
  const traffic = JSON.parse(await page.evaluate(() => window.__ringsideTraffic()))
  const started = traffic.messages.find((m) => m.type === 'OUTGOING_CALL_STARTED')
  const frame = page.frames().find((f) => f.url().includes('/widget/'))
  await frame.evaluate(
    ({ origin, externalCallId }) => window.parent.postMessage({ type: 'CALL_ANSWERED', messageId: 'wrong_1', data: { externalCallId, engagementId: 987654 } }, origin),
    { origin: base, externalCallId: started.message.data.externalCallId },
  )
  await page.waitForTimeout(1500)
  await widget.getByRole('button', { name: 'Hang up' }).click()
  await widget.getByLabel('Notes').fill('Discussed the Northwind renewal')
  await page.waitForTimeout(1500)
  await widget.getByRole('button', { name: 'Save' }).click()
  // The widget stays shown after Save (hideWidget false), back on its dial pad.
  await widget.getByRole('region', { name: 'Dial pad' }).waitFor({ timeout: 15_000 })
  await page.setViewportSize({ width: 1440, height: 1700 })
  await page.getByRole('button', { name: 'Show integration tools' }).click()
  const inspector = page.getByRole('region', { name: 'Message inspector' })
  await inspector.getByRole('button', { name: 'Ladder' }).click()
  const ladder = inspector.getByRole('region', { name: 'Ladder diagram' })
  await ladder.getByRole('combobox', { name: 'Call' }).selectOption({ index: 1 })
  await minimizeWidget(page)
  await page.waitForTimeout(400)
  const path = resolve(outDir, 'inspector-ladder.png')
  // The drawer from its tabs to the ladder's bottom edge.
  const drawer = await page.locator('.tools-drawer').boundingBox()
  const scroller = await ladder.locator('.ladder__scroller').boundingBox()
  await page.screenshot({ path, clip: { x: drawer.x, y: drawer.y, width: drawer.width, height: scroller.y + scroller.height + 10 - drawer.y } })
  console.log(`saved ${path}`)
  await page.setViewportSize({ width: 1440, height: 900 })
}

const server = await startServer()
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
})
try {
  await mkdir(outDir, { recursive: true })
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })

  await open(page, '#/developer/oauth')
  await minimizeWidget(page)
  const templateId = await createTemplate(page)
  // Connect the app through the consent page, as a developer would; its token makes the demo event.
  await page.getByRole('button', { name: 'Connect (open the consent page)' }).click()
  await page.getByRole('button', { name: 'Grant access' }).click()
  await page.getByRole('region', { name: 'Tokens held by the harness' }).getByText(/^CN/).waitFor({ timeout: 15_000 })
  await minimizeWidget(page)
  await page.setViewportSize({ width: 1440, height: 1200 })
  await shoot(page, 'developer-oauth')
  await page.setViewportSize({ width: 1440, height: 900 })
  const accessToken = await page.evaluate(() => JSON.parse(localStorage.getItem('ringside:harness')).state.oauth.accessToken)
  await createEvent(page, templateId, accessToken)
  await uploadIcon(page)

  // Contact record: properties, phones, associations, timeline (custom event expanded, call), docked widget logged in.
  // A fresh load with our widget (logged in): the consent page's round trip reloaded the harness without it.
  await open(page, '#/contacts/1')
  await setWidgetMinimized(page, false)
  const event = page.getByRole('region', { name: 'Activity' }).getByRole('article').filter({ hasText: 'Calling integrations 101' })
  await event.getByRole('button', { name: 'Show details' }).click()
  await page.frameLocator('.calling-dock iframe').getByText(/ready|available/i).first().waitFor({ timeout: 15_000 }).catch(() => {})
  await shoot(page, 'contact-record')

  // The same page with the integration tools drawer open (message inspector).
  await page.getByRole('button', { name: 'Show integration tools' }).click()
  await shoot(page, 'contact-record-inspector')

  // A call through the widget, then the inspector's ladder of it, with a wrong message's finding pinned on its arrow.
  await page.getByRole('button', { name: 'Hide integration tools' }).click()
  await ladderShot(page)

  // Developer panels: drawer closed, widget minimized, a taller window to show whole panels.
  await page.getByRole('button', { name: 'Hide integration tools' }).click()
  await page.setViewportSize({ width: 1440, height: 1200 })
  await openPanel(page, '#/developer/templates')
  await page.getByRole('button', { name: new RegExp(`^Webinar attendance #${templateId}`) }).click()
  await page.getByRole('region', { name: 'Rendered preview' }).waitFor()
  await shoot(page, 'developer-templates')

  await openPanel(page, '#/developer/calling-settings')
  await page.getByLabel('Stored settings JSON').waitFor()
  await shoot(page, 'developer-calling-settings')

  await openPanel(page, '#/developer/tickets')
  await page.getByRole('table', { name: 'Tickets' }).getByRole('link').first().waitFor()
  await shoot(page, 'developer-tickets')
} finally {
  await browser.close()
  server?.kill()
}
