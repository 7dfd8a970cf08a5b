import { expect, test as base, type Page } from '@playwright/test'
import { ORIGINS, PORTS } from './origins.ts'
import { oauthCallbackUrl } from './web-servers.ts'
import { REDIRECT_URLS_PATH } from '../shared/crm/redirect-urls.ts'

/**
 * The app's redirect_uri: a test page on the test pages origin, named localhost
 * (http is taken only there), which the e2e server registers (--redirect-url)
 * as a user registers their app's.
 */
const test = base.extend<{ callback: string }>({
  callback: async ({ baseURL }, use) => use(oauthCallbackUrl(Number(new URL(baseURL!).port))),
})

function authorizeUrl(params: Record<string, string>): string {
  return `/oauth/authorize?${new URLSearchParams(params).toString().replace(/\+/g, '%20')}`
}

/** fetch from the page (through its MSW worker); returns status and parsed JSON. */
function pageFetch(page: Page, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return page.evaluate(
    async ({ path, init }) => {
      const response = await fetch(path, init)
      const text = await response.text()
      return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> | null }
    },
    { path, init },
  )
}

test('granting on the consent page lands on the callback with code and state; the code buys a token that works with exactly the granted scopes', async ({ page, callback: CALLBACK }) => {
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(error.message))
  page.on('response', (response) => {
    if (response.status() === 404 && response.url().startsWith(ORIGINS.harness)) problems.push(`404 ${response.url()}`)
  })

  // consent: the page describes the request
  await page.goto(authorizeUrl({ client_id: 'local-client', redirect_uri: CALLBACK, scope: 'timeline tickets', optional_scope: 'crm.objects.contacts.read', state: 'xyz' }))
  await expect(page.getByRole('heading', { name: /Connect Ringside Local App/ })).toBeVisible()
  await expect(page.getByText('demo.local', { exact: true })).toBeVisible()
  const timeline = page.getByRole('checkbox', { name: /timeline/ })
  await expect(timeline).toBeChecked()
  await expect(timeline).toBeDisabled()
  await expect(page.getByRole('checkbox', { name: /tickets/ })).toBeChecked()
  const contacts = page.getByRole('checkbox', { name: /crm\.objects\.contacts\.read/ })
  await expect(contacts).not.toBeChecked()
  await expect(contacts).toBeEnabled()

  // grant (leaving the optional scope unticked)
  await page.getByRole('button', { name: 'Grant access' }).click()
  await page.waitForURL((url) => url.href.startsWith(CALLBACK) && url.searchParams.has('code'))
  const landed = new URL(page.url())
  expect(landed.searchParams.get('state')).toBe('xyz')
  const code = landed.searchParams.get('code') as string
  await expect(page.locator('#code')).toHaveText(code)

  // exchange the code as the app's backend would, on Ringside's origin (a JSON answer of it, not a page; the browser context's sandbox)
  await page.goto(`${ORIGINS.harness}/_ringside/v1/server`)
  const exchanged = await pageFetch(page, '/oauth/v1/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: 'local-client', client_secret: 'local-secret', code, redirect_uri: CALLBACK }).toString(),
  })
  expect(exchanged.status).toBe(200)
  expect(exchanged.body).toMatchObject({ token_type: 'bearer', expires_in: 1800, hub_id: 123456, scopes: ['timeline', 'tickets'] })
  const bearer = { authorization: `Bearer ${exchanged.body?.access_token as string}`, 'content-type': 'application/json' }

  // use the token: tickets and timeline work, contacts (not granted) is refused
  expect((await pageFetch(page, '/crm/v3/objects/tickets', { headers: bearer })).status).toBe(200)
  expect((await pageFetch(page, '/crm/v3/objects/contacts', { headers: bearer })).status).toBe(403)
  const template = await pageFetch(page, '/crm/v3/timeline/1001/event-templates?hapikey=dev-key-local', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Signed up', headerTemplate: 'Signed up for **{{plan}}**', tokens: [{ name: 'plan', label: 'Plan', type: 'string' }] }),
  })
  expect(template.status).toBe(201)
  const event = await pageFetch(page, '/crm/v3/timeline/events', {
    method: 'POST',
    headers: bearer,
    body: JSON.stringify({ eventTemplateId: template.body?.id, objectId: '1', tokens: { plan: 'Pro' } }),
  })
  expect(event.status).toBe(201)

  // the code was single-use
  const again = await pageFetch(page, '/oauth/v1/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: 'local-client', client_secret: 'local-secret', code, redirect_uri: CALLBACK }).toString(),
  })
  expect(again).toMatchObject({ status: 400, body: { status: 'BAD_AUTH_CODE', subCategory: 'BAD_AUTH_CODE' } })
  // The expected 403 and 400 above are the only console errors (failed fetches); no CSP violation, no crash.
  expect(problems.filter((p) => !/status of (400|403|404)/.test(p))).toEqual([])
})

test('denying lands on the callback with error=access_denied and the state', async ({ page, callback: CALLBACK }) => {
  await page.goto(authorizeUrl({ client_id: 'local-client', redirect_uri: CALLBACK, scope: 'timeline', state: 'st-2' }))
  await page.getByRole('button', { name: 'Deny' }).click()
  await page.waitForURL((url) => url.href.startsWith(CALLBACK) && url.searchParams.has('error'))
  const landed = new URL(page.url())
  expect(landed.searchParams.get('error')).toBe('access_denied')
  expect(landed.searchParams.get('state')).toBe('st-2')
  expect(landed.searchParams.has('code')).toBe(false)
})

test('an unknown client_id or a non-http redirect_uri shows the error on the page and redirects nowhere', async ({ page, callback: CALLBACK }) => {
  await page.goto(authorizeUrl({ client_id: 'intruder', redirect_uri: CALLBACK, scope: 'timeline' }))
  await expect(page.getByRole('alert')).toContainText("Unknown client_id 'intruder'")
  await expect(page.getByRole('button', { name: 'Grant access' })).toHaveCount(0)

  await page.goto(authorizeUrl({ client_id: 'local-client', redirect_uri: 'javascript:alert(1)', scope: 'timeline' }))
  await expect(page.getByRole('alert')).toContainText('redirect_uri must be an absolute http(s) URL')
  expect(new URL(page.url()).pathname).toBe('/oauth/authorize')
})

test('a redirect_uri the app has not registered shows the error on the page and sends the browser nowhere; once registered, it works', async ({ page, baseURL }) => {
  const elsewhere: string[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).port === String(PORTS.hostile)) elsewhere.push(request.url())
  })
  const foreign = `${ORIGINS.hostile}/steal-the-code`
  await page.goto(authorizeUrl({ client_id: 'local-client', redirect_uri: foreign, scope: 'timeline', state: 'st-3' }))
  await expect(page.getByRole('alert')).toContainText(`the redirect URL '${foreign}' doesn't match the app's registered redirect URL`)
  await expect(page.getByRole('button', { name: 'Grant access' })).toHaveCount(0)
  expect(new URL(page.url()).pathname).toBe('/oauth/authorize')
  // The decision is refused too, and names no place to go.
  const forced = await pageFetch(page, '/_ringside/v1/oauth/authorize', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: 'local-client', redirect_uri: foreign, scope: 'timeline', decision: 'grant' }),
  })
  expect(forced).toMatchObject({ status: 400, body: { status: 'BAD_REDIRECT_URI' } })
  expect(forced.body).not.toHaveProperty('redirectTo')
  expect(elsewhere).toEqual([])

  // Another callback of the app (another query is another URL): not registered yet, so it must be.
  const registered = `${oauthCallbackUrl(Number(new URL(baseURL!).port))}?app=second`
  await page.goto(authorizeUrl({ client_id: 'local-client', redirect_uri: registered, scope: 'timeline', state: 'st-4' }))
  await expect(page.getByRole('alert')).toContainText("doesn't match the app's registered redirect URL")
  const added = await pageFetch(page, REDIRECT_URLS_PATH, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: registered }) })
  expect(added).toMatchObject({ status: 200, body: { redirectUrls: expect.arrayContaining([registered]) } })
  await page.goto(authorizeUrl({ client_id: 'local-client', redirect_uri: registered, scope: 'timeline', state: 'st-4' }))
  await page.getByRole('button', { name: 'Grant access' }).click()
  await page.waitForURL((url) => url.href.startsWith(registered) && url.searchParams.has('code'))
  expect(new URL(page.url()).searchParams.get('state')).toBe('st-4')
})
