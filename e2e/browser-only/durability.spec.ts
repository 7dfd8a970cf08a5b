/**
 * Browser-only mode: a write answered 2xx is in IndexedDB before the answer,
 * so it survives a reload or a navigation that starts the moment it is
 * answered, with other writes still in flight. The page is the only one of
 * its origin, so the SharedWorker goes away with it and the next page's
 * worker starts from IndexedDB alone.
 */
import { expect, test, type Page } from '@playwright/test'
import { allTickets, openLiveList, STATIC } from './support.ts'

test.use({ baseURL: STATIC })

const BURST = 100
/** Leave after this many answers, with the rest of the burst still in flight. */
const LEAVE_AFTER = 70

/**
 * Fire `BURST` ticket creations at once; report each 2xx (id and subject) to
 * the test as it arrives; on the LEAVE_AFTER-th answer run `leave` (a reload
 * or a navigation) in the same task, before any later answer is handled.
 */
async function burstThenLeave(page: Page, label: string, leave: 'reload' | 'navigate'): Promise<Map<string, string>> {
  const acked = new Map<string, string>()
  await page.exposeBinding(`__acked_${label}`, (_source, id: string, subject: string) => void acked.set(id, subject))
  const navigated = page.waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame() })
  await page.evaluate(
    ({ label, burst, leaveAfter, leave }) => {
      const report = (window as unknown as Record<string, (id: string, subject: string) => void>)[`__acked_${label}`] as (id: string, subject: string) => void
      let answered = 0
      for (let i = 0; i < burst; i++) {
        const subject = `${label} ${i}`
        void fetch('/crm/v3/objects/tickets', {
          method: 'POST',
          headers: { authorization: 'Bearer pat-local', 'content-type': 'application/json' },
          body: JSON.stringify({ properties: { subject, hs_pipeline_stage: '1' } }),
        }).then(async (response) => {
          if (response.status !== 201) return
          const { id } = (await response.json()) as { id: string }
          report(id, subject)
          if (++answered === leaveAfter) {
            if (leave === 'reload') location.reload()
            else location.assign('/e2e/fixtures/browser-crm/?arrived=by-navigation')
          }
        })
      }
    },
    { label, burst: BURST, leaveAfter: LEAVE_AFTER, leave },
  )
  await navigated
  return acked
}

test(`a burst of ${BURST} writes, reloaded and navigated away from mid-burst: every write answered 2xx is kept`, async ({ page }, testInfo) => {
  await openLiveList(page)
  const seeded = (await allTickets(page)).size

  const first = await burstThenLeave(page, 'before-reload', 'reload')
  await page.waitForFunction(() => window.__crm !== undefined)
  expect(await page.evaluate(() => window.__crm?.restored)).toBe(true)

  const second = await burstThenLeave(page, 'before-navigation', 'navigate')
  await page.waitForURL(/\?arrived=by-navigation$/)
  await page.waitForFunction(() => window.__crm !== undefined)

  // Every page of the context closed: the worker is gone, a new one loads IndexedDB alone.
  const context = page.context()
  const later = await context.newPage()
  await page.close()
  await openLiveList(later)
  const found = await allTickets(later)

  const acked = new Map([...first, ...second])
  const lost = [...acked].filter(([id, subject]) => found.get(id) !== subject)
  const figures = `${acked.size} writes answered 201 (${first.size} before a reload, ${second.size} before a navigation); ${acked.size - lost.length} found afterwards; ${found.size - seeded} new tickets in all (writes still in flight when the page left may or may not have landed)`
  testInfo.annotations.push({ type: 'durability', description: figures })
  console.log(`[browser-only durability] ${figures}`)
  expect(first.size).toBeGreaterThanOrEqual(LEAVE_AFTER)
  expect(second.size).toBeGreaterThanOrEqual(LEAVE_AFTER)
  expect(lost, figures).toEqual([])
  // Nothing half-written: every ticket of the bursts is one of the requests sent, once.
  const subjects = [...found.values()].filter((subject) => /^before-(reload|navigation) \d+$/.test(subject))
  expect(new Set(subjects).size).toBe(subjects.length)

  // What IndexedDB holds: the snapshot saved at the first start (seeded tickets only) and one record per written row.
  const stored = await later.evaluate(
    () =>
      new Promise<{ snapshotTickets: number; ticketRows: number }>((resolve, reject) => {
        const open = indexedDB.open('ringside-crm')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const tx = open.result.transaction(['snapshots', 'rows'], 'readonly')
          const snapshot = tx.objectStore('snapshots').get('current')
          const rows = tx.objectStore('rows').getAll()
          tx.oncomplete = () => {
            open.result.close()
            const tickets = (rows.result as Array<{ table: string }>).filter((row) => row.table === 'crm_tickets')
            resolve({ snapshotTickets: (snapshot.result as { tables: { crm_tickets: unknown[] } }).tables.crm_tickets.length, ticketRows: tickets.length })
          }
        }
      }),
  )
  expect(stored).toEqual({ snapshotTickets: seeded, ticketRows: found.size - seeded })
})
