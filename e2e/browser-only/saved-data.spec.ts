/**
 * Browser-only mode: saved data that cannot be loaded is kept, never
 * reseeded over. The harness shows why on every panel that reads the API,
 * and Developer → Database still exports the data as saved and resets.
 */
import { expect, test } from '@playwright/test'
import { openLiveList, pageFetch, STATIC } from './support.ts'

test.use({ baseURL: STATIC })

test('a corrupt saved database is kept and explained; export returns the saved data, reset starts afresh', async ({ context }) => {
  const first = await context.newPage()
  await openLiveList(first)
  const created = await pageFetch(first, '/crm/v3/objects/tickets', { method: 'POST', body: { properties: { subject: 'Precious ticket', hs_pipeline_stage: '1' } } })
  expect(created.status).toBe(201)
  // Damage one saved row behind the CRM's back, then close every page so the next one loads from IndexedDB.
  await first.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('ringside-crm')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const tx = open.result.transaction('rows', 'readwrite')
          tx.objectStore('rows').put({ table: 'crm_tickets', id: '777', row: { subject: 'no properties' }, pos: 1e6 })
          tx.oncomplete = () => (open.result.close(), resolve())
          tx.onerror = () => reject(tx.error)
        }
      }),
  )
  const page = await context.newPage()
  await first.close()

  await page.goto('/#/tickets')
  const main = page.getByRole('main')
  await expect(main.getByRole('alert').first()).toContainText('The CRM data saved in this browser could not be loaded: Table "crm_tickets" row "777" is invalid', { timeout: 15_000 })
  await expect(main.getByRole('alert').first()).toContainText('It has been kept unchanged')

  await page.goto('/#/developer/database')
  const download = page.waitForEvent('download')
  await main.getByRole('button', { name: 'Export a snapshot' }).click()
  const file = await (await download).path()
  const { readFile } = await import('node:fs/promises')
  const exported = JSON.parse(await readFile(file, 'utf8')) as { tables: Record<string, Array<[string, unknown]>> }
  expect(exported.tables.crm_tickets).toContainEqual([created.body.id, expect.objectContaining({ properties: expect.objectContaining({ subject: 'Precious ticket' }) })])
  expect(exported.tables.crm_tickets).toContainEqual(['777', { subject: 'no properties' }])

  await main.getByRole('button', { name: 'Reset the database…' }).click()
  await main.getByRole('button', { name: 'Yes, reset the database' }).click()
  await expect(main.getByRole('status')).toContainText('reset to the seed data')
  await page.goto('/#/tickets')
  await expect(main.getByRole('link', { name: 'Invoice shows the wrong amount' })).toBeVisible()
  await expect(main.getByRole('alert')).toHaveCount(0)
})
