/**
 * DiskStorage on its own: commits become journal lines, a reset becomes a
 * snapshot, and a journal left behind by a compaction that a crash cut short
 * is recognised and not replayed over the newer snapshot.
 */
import { copyFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { createCrmService } from '../../shared/api/service.ts'
import { DiskStorage } from '../storage.ts'
import { removeScratchDirs, scratchDir } from './support.ts'

afterAll(removeScratchDirs)

const HEADERS = { authorization: 'Bearer pat-local', 'content-type': 'application/json' }

async function createTicket(service: ReturnType<typeof createCrmService>, subject: string): Promise<string> {
  const response = await service.handle(new Request('http://local/crm/v3/objects/tickets', { method: 'POST', headers: HEADERS, body: JSON.stringify({ properties: { subject, hs_pipeline_stage: '1' } }) }))
  expect(response.status).toBe(201)
  return ((await response.json()) as { id: string }).id
}

function opened(dir: string) {
  const service = createCrmService({ seed: false })
  const storage = new DiskStorage(dir)
  const report = storage.load(service.db)
  return { service, storage, report }
}

test('commits are journal lines; a reset writes a snapshot and starts a new journal', async () => {
  const dir = scratchDir('storage')
  const service = createCrmService()
  const storage = new DiskStorage(dir)
  await storage.compact(service.db)
  service.db.onCommit((commit) => storage.append(service.db, commit))

  const id = await createTicket(service, 'kept')
  expect(readFileSync(join(dir, 'journal.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2)
  await storage.close()
  const reopened = opened(dir)
  expect(reopened.report.journalEntries).toBe(1)
  expect(reopened.service.objects.get('tickets', id)).toBeDefined()

  // A reset is a replaced commit: a new snapshot without the ticket, an empty journal.
  const reset = await service.handle(new Request('http://local/_ringside/v1/reset', { method: 'POST' }))
  expect(reset.status).toBe(200)
  expect(readFileSync(join(dir, 'journal.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1)
  await storage.close()
  expect(opened(dir).service.objects.get('tickets', id)).toBeUndefined()
})

test('a journal older than the snapshot (a crash between writing the two) is ignored, with a warning', async () => {
  const dir = scratchDir('storage-stale')
  const service = createCrmService()
  const storage = new DiskStorage(dir)
  await storage.compact(service.db)
  service.db.onCommit((commit) => storage.append(service.db, commit))
  const id = await createTicket(service, 'before the reset')
  const staleJournal = join(dir, 'stale.jsonl')
  copyFileSync(join(dir, 'journal.jsonl'), staleJournal)
  await service.handle(new Request('http://local/_ringside/v1/reset', { method: 'POST' }))
  await storage.close()
  // As if the crash came after the new snapshot was renamed into place but before the new journal was.
  copyFileSync(staleJournal, join(dir, 'journal.jsonl'))

  const reopened = opened(dir)
  expect(reopened.report.journalEntries).toBe(0)
  expect(reopened.report.warnings.join('\n')).toContain('ignored a journal left by an interrupted compaction')
  expect(reopened.service.objects.get('tickets', id)).toBeUndefined()
})
