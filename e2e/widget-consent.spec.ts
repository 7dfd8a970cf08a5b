import { expect, test, type Request } from '@playwright/test'
import { ORIGINS, PORTS } from './origins.ts'

/**
 * Another web site opens the harness with `?widget=` naming a widget off this
 * machine. The harness frames nothing of it, completes no handshake with it
 * and writes nothing until the person at the harness presses "Load this
 * widget"; then it loads as ?widget= always did.
 *
 * The widget is the sdk-widget fixture, served under a name that is not this
 * machine's (widgets.attacker.test): Playwright's route answers that name from
 * the test-widget origin, so no DNS is involved.
 */
const ATTACKER_HOST = `widgets.attacker.test:${PORTS.testWidgets}`
const ATTACKER_WIDGET = `http://${ATTACKER_HOST}/e2e/fixtures/sdk-widget/`

test('a ?widget= link from another site loads nothing until confirmed in the dock; confirmed, it loads and completes the handshake', async ({ page, context }) => {
  const attackerRequests: string[] = []
  await context.route(`http://${ATTACKER_HOST}/**`, async (route) => {
    attackerRequests.push(route.request().url())
    const upstream = new URL(route.request().url())
    const target = new URL(ORIGINS.testWidgets)
    upstream.protocol = target.protocol
    upstream.host = target.host
    await route.fulfill({ response: await route.fetch({ url: upstream.href }) })
  })
  const writes: string[] = []
  // Reads that the CRM API makes with POST (batch read, search) are no writes.
  const noteWrite = (request: Request) => {
    const read = request.method() === 'GET' || request.method() === 'HEAD' || /\/(batch\/read|search)$/.test(new URL(request.url()).pathname)
    if (!read && request.url().startsWith(ORIGINS.harness)) writes.push(`${request.method()} ${request.url()}`)
  }
  context.on('request', noteWrite)

  await page.goto(`${ORIGINS.hostile}/attacker-page`)
  const popupEvent = page.waitForEvent('popup')
  await page.evaluate((url) => void window.open(url, '_blank'), `${ORIGINS.harness}/?widget=${encodeURIComponent(ATTACKER_WIDGET)}#/contacts/1`)
  const harness = await popupEvent

  const notice = harness.getByRole('alertdialog', { name: `Load a widget from http://${ATTACKER_HOST}?` })
  await expect(notice).toBeVisible({ timeout: 15_000 })
  await expect(notice).toContainText(ATTACKER_WIDGET)
  // The registered widget runs meanwhile; nothing of the other one is framed, fetched or spoken to.
  const status = harness.getByRole('group', { name: 'Calling status' })
  await expect(status).toContainText('Widget ready', { timeout: 15_000 })
  await expect(harness.locator('iframe')).toHaveCount(1)
  expect(await harness.locator('iframe').getAttribute('src')).toMatch(new RegExp(`^${ORIGINS.widget}/`))
  expect(attackerRequests).toEqual([])
  expect(writes).toEqual([])

  await harness.getByRole('button', { name: 'Load this widget' }).click()
  await expect(notice).toBeHidden()
  await expect(harness.locator('iframe')).toHaveAttribute('src', ATTACKER_WIDGET)
  await expect(status).toContainText('Widget ready', { timeout: 15_000 })
  expect(attackerRequests.length).toBeGreaterThan(0)
  expect(new URL(harness.url()).searchParams.get('widget')).toBe(ATTACKER_WIDGET)
})

test('"Keep the registered widget" drops ?widget= from the address; a reload asks nothing and loads nothing of it', async ({ page, context }) => {
  const attackerRequests: string[] = []
  await context.route(`http://${ATTACKER_HOST}/**`, (route) => {
    attackerRequests.push(route.request().url())
    return route.abort()
  })
  await page.goto(`/?widget=${encodeURIComponent(ATTACKER_WIDGET)}#/contacts`)
  await page.getByRole('button', { name: 'Keep the registered widget' }).click()
  await expect(page.getByRole('alertdialog')).toHaveCount(0)
  expect(new URL(page.url()).searchParams.has('widget')).toBe(false)
  await page.reload()
  await expect(page.getByRole('group', { name: 'Calling status' })).toContainText('Widget ready', { timeout: 15_000 })
  await expect(page.getByRole('alertdialog')).toHaveCount(0)
  expect(attackerRequests).toEqual([])
})
