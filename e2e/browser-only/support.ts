/**
 * Helpers of the browser-only specs: the static build on its own origin
 * (ORIGINS.staticHarness, no API server behind it), the fixture page that
 * lists tickets live, and fetch from a page (through MSW to the SharedWorker).
 */
import { expect, type Page } from '@playwright/test'
import { ORIGINS } from '../origins.ts'

export { pageFetch } from '../support/page-fetch.ts'

export const STATIC = ORIGINS.staticHarness
export const LIVE_LIST = '/e2e/fixtures/browser-crm/'

/** Open the fixture page that lists tickets, and wait until its CRM is up. */
export async function openLiveList(page: Page): Promise<void> {
  await page.goto(LIVE_LIST)
  await page.waitForFunction(() => window.__crm !== undefined)
  expect(await page.evaluate(() => window.__crm?.host)).toBe('shared-worker')
}

/** Every ticket's id → subject, read through the API from `page`. */
export async function allTickets(page: Page): Promise<Map<string, string>> {
  const pairs = await page.evaluate(async () => {
    const out: Array<[string, string]> = []
    let after: string | undefined
    do {
      const response = await fetch(`/crm/v3/objects/tickets?limit=100&properties=subject${after ? `&after=${after}` : ''}`, {
        headers: { authorization: 'Bearer pat-local' },
      })
      if (!response.ok) throw new Error(`listing tickets: ${response.status} ${await response.text()}`)
      const page = (await response.json()) as { results: Array<{ id: string; properties: { subject?: string } }>; paging?: { next?: { after: string } } }
      for (const ticket of page.results) out.push([ticket.id, ticket.properties.subject ?? ''])
      after = page.paging?.next?.after
    } while (after)
    return out
  })
  return new Map(pairs)
}
