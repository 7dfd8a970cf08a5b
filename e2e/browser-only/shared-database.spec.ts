/**
 * Browser-only mode (the static build, no server): every page of the origin
 * uses one database, held by one SharedWorker. Each test has a fresh browser
 * context, so a fresh IndexedDB.
 */
import { expect, test } from '@playwright/test'
import { allTickets, openLiveList, pageFetch, STATIC } from './support.ts'

test.use({ baseURL: STATIC })

test('two tabs see each other’s writes at once, without a reload, and share one sequence of ids', async ({ context }) => {
  const a = await context.newPage()
  const b = await context.newPage()
  await openLiveList(a)
  await openLiveList(b)

  const fromA = await pageFetch(a, '/crm/v3/objects/tickets', { method: 'POST', body: { properties: { subject: 'Written in tab A', hs_pipeline_stage: '1' } } })
  expect(fromA.status).toBe(201)
  await expect(b.locator(`#tickets li[data-id="${fromA.body.id}"]`)).toHaveText(`#${fromA.body.id} Written in tab A`)

  const fromB = await pageFetch(b, `/crm/v3/objects/tickets/${fromA.body.id}`, { method: 'PATCH', body: { properties: { subject: 'Edited in tab B' } } })
  expect(fromB.status).toBe(200)
  await expect(a.locator(`#tickets li[data-id="${fromA.body.id}"]`)).toHaveText(`#${fromA.body.id} Edited in tab B`)

  // Both tabs write at once: one database means distinct ids and every ticket in both lists.
  const burst = (page: typeof a, tab: string) =>
    page.evaluate(async (tab) => {
      const ids = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const response = await fetch('/crm/v3/objects/tickets', {
            method: 'POST',
            headers: { authorization: 'Bearer pat-local', 'content-type': 'application/json' },
            body: JSON.stringify({ properties: { subject: `${tab} ${i}`, hs_pipeline_stage: '1' } }),
          })
          if (response.status !== 201) throw new Error(`${tab} ${i}: ${response.status}`)
          return ((await response.json()) as { id: string }).id
        }),
      )
      return ids
    }, tab)
  const [idsA, idsB] = await Promise.all([burst(a, 'tab A'), burst(b, 'tab B')])
  expect(new Set([...idsA, ...idsB]).size).toBe(40)
  const total = (await allTickets(a)).size
  await expect(a.locator('#count')).toHaveText(`(${total})`)
  await expect(b.locator('#count')).toHaveText(`(${total})`)
  expect(await allTickets(b)).toEqual(await allTickets(a))

  // A harness tab opened now reads the same database.
  const harness = await context.newPage()
  await harness.goto('/#/tickets')
  await expect(harness.getByRole('main')).toContainText('Edited in tab B', { timeout: 15_000 })
})

test('the consent-page round trip keeps what another tab wrote meanwhile, and that tab sees the new installation', async ({ context }) => {
  // Tab 1 starts connecting the app: the consent page is open (and holds the database as it was).
  const consent = await context.newPage()
  await consent.goto('/#/developer/oauth')
  await consent.getByRole('main').getByRole('button', { name: 'Connect (open the consent page)' }).click()
  await expect(consent).toHaveURL(/\/oauth\/authorize\?/)
  await expect(consent.getByRole('button', { name: 'Grant access' })).toBeEnabled()

  // Meanwhile tab 2, a harness, creates a timeline template.
  const harness = await context.newPage()
  await harness.goto('/#/developer/templates')
  const main = harness.getByRole('main')
  await main.getByLabel('Template name').fill('Written during consent')
  await main.getByLabel(/Header template/).fill('Call with {{caller}}')
  await main.getByRole('button', { name: 'Create template' }).click()
  await expect(main.getByRole('status')).toContainText('created with id')

  // Grant in tab 1: back in the harness there, the code is exchanged and the template is there.
  await consent.getByRole('button', { name: 'Grant access' }).click()
  await expect(consent).toHaveURL(/#\/developer\/oauth$/, { timeout: 15_000 })
  const back = consent.getByRole('main')
  await expect(back.getByRole('region', { name: 'Tokens held by the harness' }).getByText(/^CN[0-9a-f]+$/)).toBeVisible()
  await back.getByRole('link', { name: 'Timeline event templates' }).click()
  await expect(back.getByRole('navigation', { name: 'Templates' })).toContainText('Written during consent')

  // Tab 2, never reloaded, sees the installation the consent page made.
  await main.getByRole('link', { name: 'OAuth' }).click()
  await expect(main.getByRole('region', { name: 'Installation' })).toContainText('Installed')
})

test('without SharedWorker the database lives in the first page, and a second page says why it cannot have it', async ({ context }) => {
  await context.addInitScript(() => {
    Reflect.deleteProperty(window, 'SharedWorker')
  })
  const first = await context.newPage()
  await first.goto('/e2e/fixtures/browser-crm/')
  await first.waitForFunction(() => window.__crm !== undefined)
  expect(await first.evaluate(() => window.__crm?.host)).toBe('page')
  expect((await pageFetch(first, '/crm/v3/objects/tickets', { method: 'POST', body: { properties: { subject: 'In the page', hs_pipeline_stage: '1' } } })).status).toBe(201)

  const second = await context.newPage()
  await second.goto('/e2e/fixtures/browser-crm/')
  await expect(second.getByRole('alert')).toContainText('only one page of this site can hold the browser-only CRM at a time')

  // Once the first page is gone, the next one holds the database, with what the first one saved.
  await first.close()
  await second.reload()
  await second.waitForFunction(() => window.__crm !== undefined)
  await expect(second.locator('#tickets')).toContainText('In the page')
})

test('a page starts no second copy of the database while another copy holds it: it waits, then opens it', async ({ context }) => {
  // Another copy (say, an older build's worker in a forgotten tab) holds the database lock.
  const holder = await context.newPage()
  await holder.goto('/not-a-ringside-page')
  await holder.evaluate(() => {
    void navigator.locks.request('ringside-crm-database', () => new Promise<void>((release) => ((window as unknown as { __release: () => void }).__release = release)))
  })

  const page = await context.newPage()
  const warned = page.waitForEvent('console', { predicate: (message) => message.text().includes('holds the database; waiting for it to close') })
  await page.goto('/e2e/fixtures/browser-crm/')
  await warned
  await expect(page.locator('#status')).toHaveText('Starting the emulated CRM…')

  await holder.evaluate(() => (window as unknown as { __release: () => void }).__release())
  await page.waitForFunction(() => window.__crm !== undefined)
  await expect(page.locator('#count')).toHaveText('(2)')
})
