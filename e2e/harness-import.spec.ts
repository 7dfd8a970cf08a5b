import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
// @ts-expect-error: a plain JavaScript module of the benchmarks, without types
import { writeContactExport } from '../tools/bench/big-export.mjs'

/**
 * Developer → Database imports an export larger than the other routes' 12 MB
 * body limit (made here from the page's own export, in well under a second):
 * the file goes to the API as it is, the page says what it is doing and
 * never blocks, and a refused file shows the API's error and changes nothing.
 */

const TWELVE_MB = 12 * 1024 * 1024

async function openDatabase(page: Page): Promise<void> {
  await page.goto('/#/developer/database')
  await expect(page.getByRole('heading', { level: 1, name: 'Database' })).toBeVisible({ timeout: 15_000 })
}

/** Contacts in the page's CRM (its sandbox), through the API as the page calls it. */
async function contactTotal(page: Page): Promise<number> {
  const response = await page.request.post('/crm/v3/objects/contacts/search', { headers: { authorization: 'Bearer pat-local' }, data: { limit: 1 } })
  expect(response.status()).toBe(200)
  return ((await response.json()) as { total: number }).total
}

/** The longest task the page's main thread ran since `watchLongTasks` (Long Tasks API), in ms. */
const watchLongTasks = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { longest: number }
    w.longest = 0
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.longest = Math.max(w.longest, entry.duration)
    }).observe({ type: 'longtask' })
  })
const longestTask = (page: Page) => page.evaluate(() => (window as unknown as { longest: number }).longest)

test('an export over 12 MB imports through the Developer panel without blocking the page; a broken one is refused and changes nothing', async ({ page }) => {
  test.setTimeout(120_000)
  await openDatabase(page)
  const dir = await mkdtemp(join(tmpdir(), 'ringside-e2e-import-'))
  try {
    const seed = await (await page.request.get('/_ringside/v1/export')).json()
    const file = join(dir, 'large-export.json')
    const { bytes, contacts } = (await writeContactExport({ seed, file, count: 34_000 })) as { bytes: number; contacts: number }
    expect(bytes).toBeGreaterThan(TWELVE_MB)

    await watchLongTasks(page)
    await page.getByLabel('Import a snapshot file').setInputFiles(file)
    await expect(page.getByRole('main').getByRole('status')).toHaveText(/^(Importing large-export\.json \(\d+\.\d MB\): the server reads and checks every row…|Imported large-export\.json \(\d+\.\d MB\)\.)$/)
    await expect(page.getByRole('main').getByRole('status')).toHaveText(/^Imported large-export\.json \(1[2-9]\.\d MB\)\.$/, { timeout: 90_000 })
    expect(await contactTotal(page)).toBe(contacts)
    // The page reads none of the file: no task of its own comes near a second, however large the file.
    expect(await longestTask(page)).toBeLessThan(1000)

    // Malformed at the very end: refused with the API's error body, and the 34,000 contacts stay.
    const broken = join(dir, 'broken.json')
    await writeFile(broken, `${(await readFile(file, 'utf8')).slice(0, -2)}]`)
    await page.getByLabel('Import a snapshot file').setInputFiles(broken)
    const alert = page.getByRole('main').getByRole('alert')
    await expect(alert).toContainText('Nothing was imported.', { timeout: 90_000 })
    await expect(alert).toContainText('VALIDATION_ERROR')
    await expect(alert).toContainText('correlationId')
    expect(await contactTotal(page)).toBe(contacts)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})
