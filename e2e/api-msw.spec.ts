import { expect, test } from '@playwright/test'
import { ORIGINS } from './origins.ts'
import { pageFetch } from './support/page-fetch.ts'

const FIXTURE = '/e2e/fixtures/api-msw/'

test('a ticket created through MSW is served by the in-page CRM and survives a reload', async ({ page }) => {
  // A test page on a test origin: MSW's worker is registered on that origin (the test server serves it there).
  await page.goto(`${ORIGINS.testPages}${FIXTURE}`)
  await page.waitForFunction(() => window.__apiReady === true)

  const created = await pageFetch(page, '/crm/v3/objects/tickets', {
    method: 'POST',
    body: { properties: { subject: 'Headset crackles on calls', hs_pipeline_stage: '2', hs_ticket_priority: 'URGENT' } },
  })
  expect(created.status).toBe(201)
  const id = created.body.id as string
  expect(id).toMatch(/^\d+$/)
  // The change is saved to IndexedDB shortly after it commits; wait for that, then reload.
  await page.evaluate(() => window.__apiIdle?.())

  await page.reload()
  await page.waitForFunction(() => window.__apiReady === true)
  await expect(page.locator('#status')).toHaveText(/restored saved data/)

  const read = await pageFetch(page, `/crm/v3/objects/tickets/${id}?properties=subject,hs_pipeline_stage,hs_ticket_priority`)
  expect(read.status).toBe(200)
  expect(read.body.properties).toEqual({ subject: 'Headset crackles on calls', hs_pipeline_stage: '2', hs_ticket_priority: 'URGENT' })
})

test.describe('browser-only mode (no server behind the page)', () => {
  test.use({ baseURL: ORIGINS.staticHarness })

  test('a date-versioned path is served, and an API path no route serves is the API’s JSON 404, not the static server’s', async ({ page }) => {
    await page.goto(FIXTURE)
    await page.waitForFunction(() => window.__apiReady === true)

    const versioned = await pageFetch(page, '/crm/objects/2026-03/tickets?limit=1')
    expect(versioned.status).toBe(200)
    expect(versioned.body.results).toHaveLength(1)

    for (const path of ['/account-info/v3/details', '/events/v3/send', '/crm/objects/2025-01/tickets', '/oauth/v9/token']) {
      const answer = await page.evaluate(async (path) => {
        const response = await fetch(path, { method: path.startsWith('/events') ? 'POST' : 'GET', headers: { authorization: 'Bearer pat-local' } })
        return { status: response.status, type: response.headers.get('content-type'), notFound: response.headers.get('x-hubspot-notfound'), body: await response.text() }
      }, path)
      expect(answer.status, path).toBe(404)
      expect(answer.type, path).toMatch(/^application\/json/)
      expect(answer.notFound, path).toBe('true')
      expect(JSON.parse(answer.body), path).toMatchObject({ status: 'error', category: 'OBJECT_NOT_FOUND', correlationId: expect.any(String) })
    }

    // The consent page is a page, not the API: the static server answers it.
    const consent = await page.evaluate(async () => (await fetch('/oauth/authorize/')).headers.get('content-type'))
    expect(consent).toMatch(/^text\/html/)
  })
})
