import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test'
import { importServer } from './support/server-module.ts'

/**
 * Server mode (`npm start`): every page of every browser shares one
 * database, and open pages learn of changes from the server's change stream.
 * The e2e server runs with --sandboxes, so two contexts share a database only
 * when they send the same sandbox cookie; these tests copy the one the
 * server minted for the first context into the second (the server trusts
 * only cookies it minted).
 */

/** A second context in the first one's sandbox: the cookie a page of this server minted for the first, copied. */
async function sameSandbox(browser: Browser, first: BrowserContext): Promise<BrowserContext> {
  const context = await browser.newContext()
  await context.addCookies((await first.cookies()).filter((cookie) => cookie.name === 'ringside_sandbox'))
  return context
}

async function openHarness(page: Page, hash: string): Promise<void> {
  await page.goto(`/${hash}`)
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible({ timeout: 15_000 })
}

async function createTicket(page: Page, subject: string): Promise<number> {
  return page.evaluate(async (subject) => {
    const response = await fetch('/crm/v3/objects/tickets', {
      method: 'POST',
      headers: { authorization: 'Bearer pat-local', 'content-type': 'application/json' },
      body: JSON.stringify({ properties: { subject, hs_pipeline_stage: '1' } }),
    })
    return response.status
  }, subject)
}

test('two browser contexts on one server see each other’s writes without a reload, and none is lost', async ({ browser }) => {
  const first = await browser.newContext()
  let second: BrowserContext | undefined
  try {
    const a = await first.newPage()
    await openHarness(a, '#/tickets')
    second = await sameSandbox(browser, first)
    const b = await second.newPage()
    await openHarness(b, '#/tickets')
    await expect(a.locator('.crm-mode-badge')).toHaveText('Server mode')
    const listA = a.getByRole('table', { name: 'Tickets' })
    const listB = b.getByRole('table', { name: 'Tickets' })

    // A writes through the API from its page; B's open list shows each write.
    const fromA = ['From A one', 'From A two', 'From A three']
    for (const subject of fromA) expect(await createTicket(a, subject)).toBe(201)
    for (const subject of fromA) await expect(listB.getByRole('link', { name: subject })).toBeVisible()

    // B writes through the harness UI; A's open list shows it.
    await b.goto('/#/developer/tickets')
    const form = b.getByRole('form', { name: 'New ticket' })
    await form.getByRole('textbox', { name: 'Subject' }).fill('From B in the panel')
    await form.getByRole('button', { name: 'Create ticket' }).click()
    await expect(b.getByRole('main').getByRole('status')).toHaveText('Ticket created.')
    await expect(listA.getByRole('link', { name: 'From B in the panel' })).toBeVisible()

    // Nothing lost: both see all four, and so does a fresh read of the API.
    for (const subject of [...fromA, 'From B in the panel']) await expect(listA.getByRole('link', { name: subject })).toBeVisible()
    const subjects = await a.evaluate(async () => {
      const response = await fetch('/crm/v3/objects/tickets?limit=100&properties=subject', { headers: { authorization: 'Bearer pat-local' } })
      return ((await response.json()) as { results: Array<{ properties: { subject: string } }> }).results.map((r) => r.properties.subject)
    })
    expect(subjects).toEqual(expect.arrayContaining([...fromA, 'From B in the panel']))
  } finally {
    await first.close()
    await second?.close()
  }
})

test('eight harness tabs share one change stream: the eighth still loads, and its write reaches the first', async ({ context }) => {
  // A browser keeps at most six HTTP/1.1 connections per origin; a stream per tab would starve the seventh.
  const tabs: Page[] = []
  for (let i = 0; i < 8; i++) {
    const tab = await context.newPage()
    await openHarness(tab, '#/tickets')
    await expect(tab.getByRole('table', { name: 'Tickets' })).toBeVisible()
    tabs.push(tab)
  }
  expect(await createTicket(tabs[7] as Page, 'Written in the eighth tab')).toBe(201)
  await expect((tabs[0] as Page).getByRole('table', { name: 'Tickets' }).getByRole('link', { name: 'Written in the eighth tab' })).toBeVisible()
})

test('a write made before the page’s change stream connects shows once it does: the page catches up', async ({ page }) => {
  // The page follows the stream itself (no SharedWorker), so page.route sees the stream's request and holds it.
  await page.addInitScript(() => Reflect.deleteProperty(window, 'SharedWorker'))
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  let asked!: () => void
  const streamAsked = new Promise<void>((resolve) => (asked = resolve))
  await page.route('**/_ringside/v1/changes', async (route) => {
    asked()
    await held
    await route.continue()
  })
  const listed = page.waitForResponse((response) => response.url().includes('/crm/v3/objects/tickets?'))
  await openHarness(page, '#/tickets')
  await listed
  await streamAsked
  // The page has loaded its list and is not yet following: a backend's write lands now.
  expect(await createTicket(page, 'Written while the stream was held')).toBe(201)
  release()
  await expect(page.getByRole('table', { name: 'Tickets' }).getByRole('link', { name: 'Written while the stream was held' })).toBeVisible()
})

test('the Database panel says the page runs in server mode', async ({ page }) => {
  await openHarness(page, '#/developer/database')
  await expect(page.getByTestId('crm-mode')).toContainText('Server mode')
  // No service worker in server mode: the API is plain HTTP.
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0)
})

test('an open page follows the server across a restart: after it, a backend’s write shows without a reload', async ({ page }) => {
  // Starts a server twice within the test: on a busy machine that can take a good part of 30 s.
  test.setTimeout(60_000)
  const { startRingside } = await importServer()
  const { freePortPair, removeScratchDirs, scratchDir } = await import('../emulator/node/test/support.ts')
  const port = await freePortPair()
  const data = scratchDir('restart')
  const origin = `http://127.0.0.1:${port}`
  let server = await startRingside({ port, data, pages: 'dist' })
  try {
    await page.goto(`${origin}/#/tickets`)
    const list = page.getByRole('table', { name: 'Tickets' })
    await expect(list).toBeVisible({ timeout: 15_000 })

    await server.close()
    server = await startRingside({ port, data, pages: 'dist' })
    const response = await fetch(`${origin}/crm/v3/objects/tickets`, {
      method: 'POST',
      headers: { authorization: 'Bearer pat-local', 'content-type': 'application/json' },
      body: JSON.stringify({ properties: { subject: 'Written after the restart', hs_pipeline_stage: '1' } }),
    })
    expect(response.status).toBe(201)
    // The page reconnects on its own (the stream asks for a retry after 1 s), and the new epoch makes it refetch.
    await expect(list.getByRole('link', { name: 'Written after the restart' })).toBeVisible({ timeout: 10_000 })
  } finally {
    await server.close()
    removeScratchDirs()
  }
})

test('a page whose change stream is refused (the server’s cap) says why in its top bar and the console, and still works', async ({ page }) => {
  const { startRingside } = await importServer()
  const { freePortPair } = await import('../emulator/node/test/support.ts')
  const port = await freePortPair()
  const origin = `http://127.0.0.1:${port}`
  const server = await startRingside({ port, data: null, pages: 'dist', maxChangeStreams: 1 })
  const taken = new AbortController()
  try {
    // Another client holds the one stream the server serves.
    const other = await fetch(`${origin}/_ringside/v1/changes`, { signal: taken.signal })
    expect(other.status).toBe(200)
    const warned = page.waitForEvent('console', { predicate: (message) => message.type() === 'warning' && message.text().includes('change stream') })
    await page.goto(`${origin}/#/tickets`)
    await expect(page.getByRole('table', { name: 'Tickets' })).toBeVisible({ timeout: 15_000 })
    expect((await warned).text()).toMatch(/refused this page's change stream \(HTTP 429\): This Ringside server already serves 1 change stream, its cap\./)
    const warning = page.getByRole('banner').getByRole('status').filter({ hasText: 'Live updates off' })
    await expect(warning).toHaveText('Live updates off: changes made elsewhere show after a reload')
    await expect(warning).toHaveAttribute('title', /HTTP 429\): This Ringside server already serves 1 change stream, its cap\./)
  } finally {
    taken.abort()
    await server.close()
  }
})
