import { spawn, type ChildProcess } from 'node:child_process'
import { expect, test, type BrowserContext, type Page } from '@playwright/test'
import { ORIGINS } from './origins.ts'
import { REDIRECT_URLS_PATH } from '../shared/crm/redirect-urls.ts'
import { freePortPair } from '../emulator/node/test/support.ts'

/**
 * examples/widget-backend, run for real beside the e2e server: it connects
 * through the consent page (OAuth code flow), refreshes its token, posts a
 * timeline event and creates a call on Maria Garcia with @hubspot/api-client.
 * Her record page, open all along, shows both without a reload, and the
 * inspector has nothing to report. Then an inbound call from her number:
 * the CRM answers the caller-ID match, the backend marks the recording ready
 * and posts a transcript, and her record page plays the recording through
 * Ringside, seeking with a Range request that reaches the backend.
 *
 * The backend uses the server's main database (a Node client names no
 * sandbox), so this browser context asks for the main one too (the
 * x-ringside-sandbox header on each of its requests to the server).
 */

// Both tests in one worker, in order: each worker that runs a test of this file starts a backend of its own.
test.describe.configure({ mode: 'default' })

let backend: ChildProcess | undefined
let backendUrl = ''
/** The backend's OAuth callback on its port, registered for the app before it connects. */
let callbackUrl = ''

/** Add or remove a redirect URL of the app in the server's main database (a Node client names no sandbox). */
async function redirectUrl(method: 'POST' | 'DELETE', url: string): Promise<void> {
  const endpoint = new URL(REDIRECT_URLS_PATH, ORIGINS.harness)
  if (method === 'DELETE') endpoint.searchParams.set('url', url)
  const response = await fetch(endpoint, { method, ...(method === 'POST' && { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url }) }) })
  if (!response.ok) throw new Error(`${method} ${REDIRECT_URLS_PATH} → ${response.status}: ${await response.text()}`)
}

test.beforeAll(async () => {
  const port = await freePortPair()
  backendUrl = `http://127.0.0.1:${port}`
  callbackUrl = `http://localhost:${port}/oauth/callback`
  await redirectUrl('POST', callbackUrl)
  backend = spawn(process.execPath, ['examples/widget-backend/server.mjs'], {
    env: { ...process.env, RINGSIDE_URL: ORIGINS.harness, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const deadline = Date.now() + 15_000
  while (Date.now() < deadline) {
    const up = await fetch(`${backendUrl}/`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('the example backend did not start')
})

test.afterAll(async () => {
  backend?.kill('SIGTERM')
  if (callbackUrl) await redirectUrl('DELETE', callbackUrl)
})

const activity = (page: Page) => page.getByRole('region', { name: 'Activity' })

/** Maria Garcia's record page, in the main database; returns the page errors seen from now on. */
async function openMariaGarcia(context: BrowserContext, page: Page): Promise<string[]> {
  // The server trusts no sandbox cookie it did not mint, and never `main` from one: the header names main on purpose.
  // Playwright routes a page's requests, not a SharedWorker's, so the harness follows its change stream from the page
  // (its fallback where SharedWorker is missing).
  await context.addInitScript(() => Reflect.deleteProperty(globalThis, 'SharedWorker'))
  await context.route(`${ORIGINS.harness}/**`, (route) => route.continue({ headers: { ...route.request().headers(), 'x-ringside-sandbox': 'main' } }))
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto('/#/contacts')
  await page.getByRole('link', { name: 'Maria Garcia' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Maria Garcia' })).toBeVisible()
  return errors
}

/** The backend in another tab, connected through the consent page (OAuth code flow). */
async function connectBackend(context: BrowserContext): Promise<Page> {
  const app = await context.newPage()
  await app.goto(`${backendUrl}/`)
  await app.getByRole('link', { name: 'Connect to the CRM (OAuth)' }).click()
  await expect(app.getByRole('heading', { name: /Connect Ringside Local App/ })).toBeVisible()
  await app.getByRole('button', { name: 'Grant access' }).click()
  await expect(app.locator('#result')).toHaveText('Connected: exchanged the code for tokens.')
  return app
}

test('the example backend’s timeline event and call show live on the open record page; the inspector stays clean', async ({ context, page }) => {
  // The contact's record page, open before the backend does anything.
  const errors = await openMariaGarcia(context, page)
  const events = activity(page).getByRole('article', { name: /Inbound desk-phone call with \+1 617 555 0101/ })
  const calls = activity(page).getByRole('article', { name: 'Inbound call: Answered on the desk phone' })
  await expect(activity(page).getByRole('article').first()).toBeVisible()
  const before = { events: await events.count(), calls: await calls.count() }

  // The backend, in another tab: connect through the consent page, refresh, log a call.
  const app = await connectBackend(context)
  await expect(app.locator('#connection')).toContainText('Connected')
  const firstToken = /access token (…\S+),/.exec((await app.locator('#connection').textContent()) ?? '')?.[1]
  expect(firstToken).toBeTruthy()
  await app.getByRole('button', { name: 'Refresh the access token now' }).click()
  await expect(app.locator('#result')).toHaveText('Refreshed the access token.')
  await expect(app.locator('#connection')).toContainText('access token …')
  await expect(app.locator('#connection')).not.toContainText(`access token ${firstToken},`)
  await app.getByRole('button', { name: 'Log a desk-phone call' }).click()
  await expect(app.locator('#result')).toHaveText(/^Logged for Maria Garcia: timeline event \S+ and call \d+\.$/)

  // Live on the record page, with no reload.
  await expect(events).toHaveCount(before.events + 1)
  await expect(calls).toHaveCount(before.calls + 1)
  await expect(calls.first()).toContainText('1:35')

  // The inspector has no findings.
  await page.getByRole('button', { name: 'Show integration tools' }).click()
  await expect(page.getByRole('region', { name: 'Message inspector' }).getByText('No conformance findings.')).toBeVisible()
  expect(errors).toEqual([])
})

/** The requests the CRM made to the backend, as the backend logged them. */
async function crmRequests(): Promise<Array<{ method: string; path: string; range: string | null; signed: boolean }>> {
  return (await fetch(`${backendUrl}/crm-requests.json`)).json()
}
const rangeStart = (range: string | null) => Number(/^bytes=(\d+)-/.exec(range ?? '')?.[1] ?? -1)

test('an inbound call: caller-ID matches, then the recording plays through Ringside with seeking, and the transcript shows', async ({ context, page }) => {
  const errors = await openMariaGarcia(context, page)
  const app = await connectBackend(context)

  // The inbound call: the CRM logs it and answers who is calling.
  await app.getByRole('textbox', { name: "Caller's number" }).fill('+16175550101')
  await app.getByRole('button', { name: 'Receive an inbound call' }).click()
  await expect(app.locator('#result')).toHaveText(/^Inbound call from \+16175550101: caller ID matches Maria Garcia \(contact 1\)\. Logged as call \d+\.$/)
  const entry = activity(page).getByRole('article', { name: 'Inbound call: Inbound call to the support line' }).first()
  await expect(entry).toContainText('Caller ID matches for +16175550101: Maria Garcia (contact)')

  // After the call: the recording is marked ready (the CRM asks the backend for it) and the transcript posted.
  await app.getByRole('button', { name: 'After the call: recording ready, post the transcript' }).click()
  await expect(app.locator('#result')).toHaveText(/^Call \d+: recording marked ready and transcript \d+ posted\.$/)
  const asked = await crmRequests()
  expect(asked.find((r) => r.path.startsWith('/recordings/')), 'the CRM asked for the recording URL with a valid signature').toMatchObject({ method: 'GET', signed: true })
  expect(asked.find((r) => r.path.startsWith('/files/'))?.range).toBe('bytes=0-1')

  // The record page: the transcript, and the player, whose audio comes through Ringside.
  const transcript = entry.getByRole('region', { name: 'Transcript' })
  await expect(transcript).toContainText('Support agent: Let me replace it for you today.')
  const player = entry.getByLabel('Call recording')
  await expect(player).toHaveAttribute('src', /^\/_ringside\/v1\/calls\/\d+\/recording$/)
  await expect.poll(() => player.evaluate((audio: HTMLAudioElement) => audio.duration)).toBeCloseTo(120, 0)
  const farRanges = async () => (await crmRequests()).filter((r) => r.path.startsWith('/files/') && rangeStart(r.range) >= 1_000_000)
  expect(await farRanges(), 'nothing past 1 MB was fetched before seeking').toEqual([])

  // Seek to the agent's answer at 1:30: the player asks Ringside for that part, and Ringside asks the backend with Range.
  await transcript.getByRole('button', { name: '1:30' }).click()
  await expect.poll(async () => (await farRanges()).length, { timeout: 15_000 }).toBeGreaterThan(0)
  expect(await player.evaluate((audio: HTMLAudioElement) => audio.currentTime)).toBeGreaterThanOrEqual(89)
  expect(errors).toEqual([])
})
