import { readFile } from 'node:fs/promises'
import { expect, test, type Page } from '@playwright/test'

/** Open the harness at a hash route and wait until the app (not the start-up screen) shows. */
async function openHarness(page: Page, hash = '#/contacts'): Promise<void> {
  await page.goto(`/${hash}`)
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible({ timeout: 15_000 })
}

test('a contact shows its properties, phone numbers, associations and call timeline', async ({ page }) => {
  await openHarness(page)
  // contacts list → record page
  await expect(page.getByRole('table', { name: 'Contacts' })).toBeVisible()
  await page.getByRole('link', { name: 'Maria Garcia' }).click()
  await expect(page).toHaveURL(/#\/contacts\/\d+$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Maria Garcia' })).toBeVisible()

  // properties and phones
  const properties = page.getByRole('region', { name: 'Properties' })
  await expect(properties.getByText('maria.garcia@northwind.example')).toBeVisible()
  const phones = page.getByRole('region', { name: 'Phone numbers' })
  await expect(phones.getByRole('button', { name: 'Call +1 617 555 0101' })).toBeVisible()
  await expect(phones.getByRole('button', { name: 'Call +1 617 555 0191' })).toBeVisible()

  // associations link to other records
  await expect(page.getByRole('region', { name: /Companies \(1\)/ }).getByRole('link', { name: 'Northwind Traders' })).toBeVisible()

  // the timeline holds the seeded call
  const call = page.getByRole('region', { name: 'Activity' }).getByRole('article', { name: 'Inbound call: Call with Maria Garcia' })
  await expect(call).toBeVisible()
  await expect(call.getByText('7:12')).toBeVisible()
  await expect(call.getByText(/cannot log in since the password reset/)).toBeVisible()
  // and the seeded note, read through the notes API
  const note = page.getByRole('region', { name: 'Activity' }).getByRole('article', { name: 'Note' })
  await expect(note.getByText(/prefers a call in the morning/)).toBeVisible()

  // an association link opens the other record
  await page.getByRole('link', { name: 'Northwind Traders' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Northwind Traders' })).toBeVisible()
})

test('the contact search uses the API and pages through results', async ({ page }) => {
  await openHarness(page)
  await page.getByRole('searchbox', { name: 'Search contacts' }).fill('contoso')
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  await expect(page.getByRole('main').getByRole('status')).toHaveText(/2 matches for “contoso”/)
  const rows = page.getByRole('table', { name: 'Contacts' }).getByRole('link')
  await expect(rows).toHaveText(['Aisha Okafor', 'Lukas Müller'])
})

test('a ticket created in the tickets panel shows in the tickets list and opens as a record', async ({ page }) => {
  await openHarness(page, '#/developer/tickets')
  const form = page.getByRole('form', { name: 'New ticket' })
  await form.getByRole('textbox', { name: 'Subject' }).fill('Headset crackles on every call')
  await form.getByRole('combobox', { name: 'Stage' }).selectOption({ label: 'Waiting on contact' })
  await form.getByRole('combobox', { name: 'Priority' }).selectOption({ label: 'Urgent' })
  await form.getByRole('button', { name: 'Create ticket' }).click()
  await expect(page.getByRole('main').getByRole('status')).toHaveText('Ticket created.')
  await expect(page.getByRole('table', { name: 'Tickets' }).getByRole('link', { name: 'Headset crackles on every call' })).toBeVisible()

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tickets' }).click()
  const list = page.getByRole('table', { name: 'Tickets' })
  const row = list.getByRole('row').filter({ hasText: 'Headset crackles on every call' })
  await expect(row).toContainText('Waiting on contact')
  await expect(row).toContainText('Urgent')
  await row.getByRole('link').click()
  await expect(page.getByRole('heading', { level: 1, name: 'Headset crackles on every call' })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Properties' }).getByText('Urgent')).toBeVisible()
})

test('database round trip: export, change, import the export, then reset to the seed', async ({ page }) => {
  await openHarness(page, '#/developer/database')

  // export
  const downloading = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export a snapshot' }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toMatch(/^ringside-snapshot-.*\.json$/)
  const snapshotPath = await download.path()
  const snapshot = await readFile(snapshotPath, 'utf8')
  expect(() => JSON.parse(snapshot)).not.toThrow()

  // change: a new ticket
  await page.getByRole('navigation', { name: 'Developer panels' }).getByRole('link', { name: 'Tickets' }).click()
  await page.getByRole('form', { name: 'New ticket' }).getByRole('textbox', { name: 'Subject' }).fill('Only after the export')
  await page.getByRole('button', { name: 'Create ticket' }).click()
  await expect(page.getByRole('link', { name: 'Only after the export' })).toBeVisible()

  // import the export: the ticket is gone
  await page.getByRole('navigation', { name: 'Developer panels' }).getByRole('link', { name: 'Database' }).click()
  await page.getByLabel('Import a snapshot file').setInputFiles({ name: 'snapshot.json', mimeType: 'application/json', buffer: Buffer.from(snapshot) })
  await expect(page.getByRole('main').getByRole('status')).toHaveText(/^Imported snapshot\.json \(\d+ KB\)\.$/)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tickets' }).click()
  await expect(page.getByRole('link', { name: 'Cannot log in to the customer portal' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Only after the export' })).toHaveCount(0)

  // a foreign snapshot is refused with the API's error, nothing changes
  await openHarness(page, '#/developer/database')
  await page.getByLabel('Import a snapshot file').setInputFiles({ name: 'other.json', mimeType: 'application/json', buffer: Buffer.from('{"hello":"world"}') })
  const alert = page.getByRole('main').getByRole('alert')
  await expect(alert).toContainText('VALIDATION_ERROR')
  await expect(alert).toContainText('correlationId')

  // reset: a change disappears
  await page.evaluate(async () => {
    const response = await fetch('/crm/v3/objects/contacts', {
      method: 'POST',
      headers: { authorization: 'Bearer pat-local', 'content-type': 'application/json' },
      body: JSON.stringify({ properties: { firstname: 'Ephemeral', lastname: 'Person' } }),
    })
    if (response.status !== 201) throw new Error(`contact not created: ${response.status}`)
  })
  await page.getByRole('button', { name: 'Reset the database…' }).click()
  await page.getByRole('button', { name: 'Yes, reset the database' }).click()
  await expect(page.getByRole('main').getByRole('status')).toContainText('The database was reset to the seed data.')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click()
  await expect(page.getByRole('link', { name: 'Maria Garcia' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Ephemeral Person' })).toHaveCount(0)
})
