import { expect, test, type Page } from '@playwright/test'
import { XSS_CORPUS } from '../shared/testing/xss-corpus.ts'

/**
 * Hostile content from a calling app (template text, token values,
 * extraData, call notes) is shown by the harness without running anything,
 * and the production build's Content-Security-Policy blocks nothing the
 * harness itself needs.
 */

interface Watch {
  dialogs: string[]
  consoleErrors: string[]
  pageErrors: string[]
}

/** Record dialogs, console errors, page errors and CSP violations (in the page, from the first script on). */
async function watch(page: Page): Promise<Watch> {
  const seen: Watch = { dialogs: [], consoleErrors: [], pageErrors: [] }
  page.on('dialog', (dialog) => {
    seen.dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  page.on('console', (message) => {
    if (message.type() === 'error') seen.consoleErrors.push(message.text())
  })
  page.on('pageerror', (error) => seen.pageErrors.push(error.message))
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[]; __xssFired: string[] }
    w.__cspViolations = []
    w.__xssFired = []
    document.addEventListener('securitypolicyviolation', (e) => w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber} ${e.sample}`))
    // Any payload that manages to run calls one of these.
    const fired = (name: string) => () => w.__xssFired.push(name)
    window.alert = fired('alert')
    window.confirm = () => (fired('confirm')(), false)
    window.prompt = () => (fired('prompt')(), null)
  })
  return seen
}

async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)
}

async function openHarness(page: Page, hash: string): Promise<void> {
  await page.goto(`/${hash}`)
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible({ timeout: 15_000 })
}

/** In the page: a template and an event full of hostile content on Maria's record; returns her id. */
async function plantHostileEvent(page: Page): Promise<string> {
  return page.evaluate(async (corpus) => {
    const json = async (response: Response) => {
      const text = await response.text()
      if (!response.ok) throw new Error(`${response.status} ${response.url}: ${text}`)
      return JSON.parse(text) as Record<string, unknown>
    }
    const pat = { authorization: 'Bearer pat-local', 'content-type': 'application/json' }
    const found = await json(
      await fetch('/crm/v3/objects/contacts/search', {
        method: 'POST',
        headers: pat,
        body: JSON.stringify({ filterGroups: [{ filters: [{ propertyName: 'firstname', operator: 'EQ', value: 'Maria' }] }] }),
      }),
    )
    const contactId = (found.results as Array<{ id: string }>)[0]!.id

    // Template text may not hold Handlebars syntax errors, so the corpus goes in without its {{…}} entries.
    const plain = corpus.filter((item) => !item.includes('{{')).join(' ')
    const template = await json(
      await fetch('/crm/v3/timeline/1001/event-templates?hapikey=dev-key-local', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Hostile template',
          objectType: 'contacts',
          headerTemplate: `XSS header {{payload}} <img src=x onerror=alert('header')> [link](javascript:alert('md'))`,
          detailTemplate: `XSS detail\n\n${plain}\n\n{{payload}}\n\n{{#each extraData.items}}- {{this}}\n{{/each}}\n\n[a link](javascript:alert('md-detail')) ![img](javascript:alert('img'))`,
          tokens: [{ name: 'payload', label: 'Payload', type: 'string' }],
        }),
      }),
    )

    // An OAuth access token, as a calling app gets one: consent decision, then the token endpoint.
    const redirectUri = `${location.origin}/?oauth_callback=1`
    const decision = await json(
      await fetch('/_ringside/v1/oauth/authorize', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'local-client', redirect_uri: redirectUri, scope: 'timeline', state: 's', decision: 'grant' }),
      }),
    )
    const tokens = await json(
      await fetch('/oauth/v1/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: 'local-client',
          client_secret: 'local-secret',
          redirect_uri: redirectUri,
          code: decision.code as string,
        }).toString(),
      }),
    )

    await json(
      await fetch('/crm/v3/timeline/events', {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.access_token as string}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          eventTemplateId: template.id,
          objectId: contactId,
          tokens: { payload: corpus.join(' ') },
          extraData: { items: corpus },
          timelineIFrame: { linkLabel: 'Open frame', headerLabel: 'Framed <script>alert("frame")</script>', url: 'https://example.com/frame', width: 400, height: 300 },
        }),
      }),
    )

    // Call notes from a widget are HTML too.
    await json(
      await fetch('/crm/v3/objects/calls', {
        method: 'POST',
        headers: pat,
        body: JSON.stringify({
          properties: {
            hs_call_title: 'Hostile notes',
            hs_call_body: `<p>Notes start <a href="https://example.com/ok" onclick="alert('link')">ok link</a></p>\n${corpus.join('\n')}`,
            hs_call_direction: 'OUTBOUND',
            hs_call_status: 'COMPLETED',
            hs_timestamp: new Date().toISOString(),
          },
          associations: [{ to: { id: contactId }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 194 }] }],
        }),
      }),
    )
    return contactId
  }, XSS_CORPUS)
}

/** Everything in the document that could run script. */
async function executableBits(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = []
    const main = document.querySelector('main')
    for (const el of main ? main.querySelectorAll('*') : []) {
      const tag = el.tagName.toLowerCase()
      if (tag === 'script' || tag === 'object' || tag === 'embed' || tag === 'svg' || tag === 'math') found.push(`<${tag}>`)
      if (tag === 'iframe' && !el.closest('[role="dialog"]')) found.push('<iframe> outside a dialog')
      for (const attr of el.attributes) {
        const name = attr.name.toLowerCase()
        if (name.startsWith('on')) found.push(`${tag}[${name}]`)
        if (['href', 'src', 'action', 'formaction', 'data'].includes(name) && /^\s*(javascript|vbscript|data:text)/i.test(attr.value)) {
          found.push(`${tag}[${name}=${attr.value}]`)
        }
      }
    }
    return found
  })
}

test('hostile templates, tokens, extraData and call notes render as inert text', async ({ page }) => {
  const seen = await watch(page)
  await openHarness(page, '#/contacts')
  const contactId = await plantHostileEvent(page)

  await openHarness(page, `#/contacts/${contactId}`)
  const timeline = page.getByRole('region', { name: 'Activity' })
  const event = timeline.getByRole('article').filter({ hasText: 'XSS header' })
  await expect(event).toBeVisible()
  await event.getByRole('button', { name: 'Show details' }).click()
  await expect(event.getByText('XSS detail')).toBeVisible()
  // Hostile text is shown as text, not parsed as markup.
  await expect(event.getByText(/<script>alert\(1\)<\/script>/).first()).toBeVisible()

  const notes = timeline.getByRole('article', { name: 'Outbound call: Hostile notes' })
  await expect(notes).toBeVisible()
  await expect(notes.getByText(/<script>alert\(1\)<\/script>/)).toHaveCount(0)
  const okLink = notes.getByRole('link', { name: 'ok link' })
  await expect(okLink).toHaveAttribute('href', 'https://example.com/ok')
  await expect(okLink).toHaveAttribute('rel', /noopener/)
  await expect(okLink).toHaveAttribute('target', '_blank')

  // The frame opens sandboxed, its title as text.
  await event.getByRole('button', { name: 'Open frame' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByRole('heading')).toHaveText('Framed <script>alert("frame")</script>')
  await expect(dialog.locator('iframe')).toHaveAttribute('sandbox', /allow-scripts/)
  await expect(dialog.locator('iframe')).not.toHaveAttribute('sandbox', /allow-same-origin/)
  await dialog.getByRole('button', { name: 'Close' }).click()

  // Give any stray handler (onerror of a broken image, onfocus, ontoggle…) a chance to fire.
  await page.mouse.move(400, 400)
  await page.keyboard.press('Tab')
  await page.waitForTimeout(500)

  expect(await executableBits(page)).toEqual([])
  expect(await page.evaluate(() => (window as unknown as { __xssFired: string[] }).__xssFired)).toEqual([])
  expect(seen.dialogs).toEqual([])
  expect(seen.pageErrors).toEqual([])
  // The sanitizer parses hostile notes in an inert document (DOMParser), which Chromium checks against the
  // page's policy: the corpus's <base> is reported there (base-uri 'none'), and never reaches the page.
  expect(await page.locator('base').count()).toBe(0)
  expect((await cspViolations(page)).filter((violation) => !violation.startsWith('base-uri '))).toEqual([])
  expect(seen.consoleErrors.filter((line) => !line.startsWith("Setting the document's base URI to '' violates"))).toEqual([])
})

test('the built harness is served with its Content-Security-Policy and nothing it needs is blocked', async ({ page }) => {
  const seen = await watch(page)
  const document = page.waitForResponse((response) => response.request().resourceType() === 'document')
  await openHarness(page, '#/contacts')
  const policy = (await document).headers()['content-security-policy']
  expect(policy).toContain("script-src 'self'")
  expect(policy).toContain("object-src 'none'")

  // Visit every kind of page: lists, a record with its timeline and widget, each developer panel.
  await page.getByRole('link', { name: 'Maria Garcia' }).click()
  await expect(page.getByRole('region', { name: 'Activity' }).getByRole('article').first()).toBeVisible()
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Developer' }).click()
  for (const panel of ['Account & credentials', 'App', 'Calling settings', 'Timeline event templates', 'OAuth', 'Tickets', 'Database']) {
    await page.getByRole('navigation', { name: 'Developer panels' }).getByRole('link', { name: panel }).click()
    await expect(page.getByRole('main').getByRole('heading', { level: 1, name: panel })).toBeVisible()
  }
  await page.getByRole('button', { name: 'Show integration tools' }).click()
  await page.waitForTimeout(300)

  expect(await cspViolations(page)).toEqual([])
  expect(seen.consoleErrors).toEqual([])
  expect(seen.pageErrors).toEqual([])
})
