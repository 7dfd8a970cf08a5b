import { expect, test } from '@playwright/test'
import { pageFetch } from './support/page-fetch.ts'

const FIXTURE = '/e2e/fixtures/api-msw/'

test('a ticket created through MSW is served by the in-page CRM and survives a reload', async ({ page }) => {
  await page.goto(FIXTURE)
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
