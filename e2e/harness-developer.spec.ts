import { expect, test, type Page } from '@playwright/test'

/** Open the harness at a hash route and wait until the app (not the start-up screen) shows. */
async function openHarness(page: Page, hash: string): Promise<void> {
  await page.goto(`/${hash}`)
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible({ timeout: 15_000 })
}

test('connecting through the consent page stores tokens that work; disconnecting revokes them', async ({ page }) => {
  await openHarness(page, '#/developer/oauth')
  const main = page.getByRole('main')
  await expect(main.getByRole('region', { name: 'Installation' })).toContainText('Not installed')

  // connect: consent page in the same tab, grant, back to the harness
  await main.getByRole('button', { name: 'Connect (open the consent page)' }).click()
  await expect(page).toHaveURL(/\/oauth\/authorize\?/)
  await page.getByRole('button', { name: 'Grant access' }).click()
  await expect(page).toHaveURL(/#\/developer\/oauth$/, { timeout: 15_000 })
  expect(new URL(page.url()).search).toBe('') // the code is not left in the address

  const tokens = main.getByRole('region', { name: 'Tokens held by the harness' })
  await expect(tokens.getByText(/^CN[0-9a-f]+$/)).toBeVisible()
  await expect(tokens).toContainText('timeline')
  await expect(main.getByRole('region', { name: 'Installation' })).toContainText('Installed')
  const accessToken = (await tokens.getByText(/^CN[0-9a-f]+$/).textContent()) as string

  // the token is a real OAuth token: it may create timeline events
  const status = await page.evaluate(async (token) => {
    const response = await fetch('/crm/v3/timeline/1001/event-templates?hapikey=dev-key-local', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Demo', headerTemplate: 'Demo {{x}}', tokens: [{ name: 'x', label: 'X', type: 'string' }] }),
    })
    const template = (await response.json()) as { id: string }
    const event = await fetch('/crm/v3/timeline/events', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ eventTemplateId: template.id, objectId: '1', tokens: { x: 'y' } }),
    })
    return event.status
  }, accessToken)
  expect(status).toBe(201)

  // refresh gives a new access token
  await tokens.getByRole('button', { name: 'Refresh the access token' }).click()
  await expect(tokens.getByText(/^CN[0-9a-f]+$/)).not.toHaveText(accessToken)

  // disconnect: uninstalled, tokens forgotten and revoked
  await main.getByRole('button', { name: 'Disconnect (uninstall)' }).click()
  await expect(main.getByRole('region', { name: 'Installation' })).toContainText('Not installed')
  await expect(tokens).toContainText('No tokens.')
  const after = await page.evaluate(
    async (token) => (await fetch('/crm/v3/objects/contacts', { headers: { authorization: `Bearer ${token}` } })).status,
    accessToken,
  )
  expect(after).toBe(401)
})

test('a callback whose state was not issued by the harness is refused without exchanging the code', async ({ page }) => {
  await page.goto('/?oauth_callback=1&code=abc&state=forged')
  await expect(page.getByRole('main').getByRole('alert')).toContainText('state parameter does not match')
  await page.getByRole('button', { name: 'Back to the OAuth panel' }).click()
  await expect(page).toHaveURL(/\/#\/developer\/oauth$/)
})

test('calling settings: an invalid change shows the API error verbatim; a valid one is stored', async ({ page }) => {
  await openHarness(page, '#/developer/calling-settings')
  const main = page.getByRole('main')
  await expect(main.getByLabel('Stored settings JSON')).toContainText('Ringside reference widget')

  await main.getByRole('textbox', { name: 'Widget URL' }).fill('javascript:alert(1)')
  await main.getByRole('button', { name: 'Update (PATCH)' }).click()
  const alert = main.getByRole('alert')
  await expect(alert).toContainText('VALIDATION_ERROR')
  await expect(alert).toContainText(/correlationId\s*[0-9a-f-]{36}/)
  await expect(main.getByLabel('Stored settings JSON')).not.toContainText('javascript:')

  await main.getByRole('textbox', { name: 'Name' }).fill('My dialer')
  await main.getByRole('textbox', { name: 'Widget URL' }).fill('http://127.0.0.1:4174/widget/')
  await main.getByRole('button', { name: 'Update (PATCH)' }).click()
  await expect(main.getByRole('status')).toHaveText('PATCH succeeded.')
  await expect(main.getByLabel('Stored settings JSON')).toContainText('My dialer')
})

test('the app icon upload refuses SVG and accepts a square PNG, kept across reloads and shown with the app name', async ({ page }) => {
  await openHarness(page, '#/developer/app')
  const main = page.getByRole('main')
  const upload = main.getByLabel('Upload an icon')
  await upload.setInputFiles({ name: 'icon.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>') })
  await expect(main.getByRole('alert')).toContainText('SVG icons are not accepted')

  // A 40 × 40 PNG, drawn in the page.
  const png = await page.evaluate(async () => {
    const canvas = document.createElement('canvas')
    canvas.width = 40
    canvas.height = 40
    const context = canvas.getContext('2d')!
    context.fillStyle = '#0b7a8a'
    context.fillRect(0, 0, 40, 40)
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'))
    return Array.from(new Uint8Array(await blob.arrayBuffer()))
  })
  await upload.setInputFiles({ name: 'icon.png', mimeType: 'image/png', buffer: Buffer.from(png) })
  await expect(main.getByRole('img', { name: 'Current app icon' })).toBeVisible()
  await expect(main).toContainText('icon.png, 40 × 40')

  await page.reload()
  await expect(main.getByRole('img', { name: 'Current app icon' })).toBeVisible({ timeout: 15_000 })
  const badge = main.getByRole('region', { name: 'On the timeline' })
  await expect(badge).toContainText('Ringside Local App')
  await expect(badge.locator('img')).toHaveAttribute('src', /^data:image\/png;base64,/)
})

test('OAuth redirect URLs: one registered in the panel is listed and the consent page takes it; an http one off localhost is refused with the API error', async ({ page }) => {
  await openHarness(page, '#/developer/oauth')
  const card = page.getByRole('main').getByRole('region', { name: 'Redirect URLs' })
  const list = card.getByRole('list', { name: 'Registered redirect URLs' })
  await expect(list).toContainText('http://localhost:3000/oauth/callback')

  await card.getByLabel('Redirect URL', { exact: true }).fill('http://127.0.0.1:9999/cb')
  await card.getByRole('button', { name: 'Register' }).click()
  await expect(page.getByRole('main')).toContainText('http only for localhost')
  await expect(list).not.toContainText('127.0.0.1:9999')

  const mine = 'https://app.example/oauth/callback'
  await card.getByLabel('Redirect URL', { exact: true }).fill(mine)
  await card.getByRole('button', { name: 'Register' }).click()
  await expect(list).toContainText(mine)
  await page.goto(`/oauth/authorize?${new URLSearchParams({ client_id: 'local-client', redirect_uri: mine, scope: 'timeline' })}`)
  await expect(page.getByRole('button', { name: 'Grant access' })).toBeVisible()

  await openHarness(page, '#/developer/oauth')
  await page.getByRole('button', { name: `Remove ${mine}` }).click()
  await expect(page.getByRole('list', { name: 'Registered redirect URLs' })).not.toContainText(mine)
  await page.goto(`/oauth/authorize?${new URLSearchParams({ client_id: 'local-client', redirect_uri: mine, scope: 'timeline' })}`)
  await expect(page.getByRole('alert')).toContainText("doesn't match the app's registered redirect URL")
})
