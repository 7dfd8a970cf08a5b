/**
 * fetch from inside a page, with the private-app token: in browser-only mode the request
 * goes through MSW to the in-browser CRM. Returns the status and the parsed body (null
 * for an empty one).
 */
import type { Page } from '@playwright/test'

export function pageFetch(page: Page, path: string, init: { method?: string; body?: unknown } = {}) {
  return page.evaluate(
    async ({ path, init }) => {
      const response = await fetch(path, {
        method: init.method ?? 'GET',
        headers: { authorization: 'Bearer pat-local', 'content-type': 'application/json' },
        ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
      })
      const text = await response.text()
      return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, any> }
    },
    { path, init },
  )
}
