/**
 * Durability of server mode (the CLI in a child process where a kill or its
 * output is what is tested, else the server in this process):
 * - kill -9 right after a burst of writes that each got a 2xx, restart: every
 *   one of them is there (with compaction running during the burst);
 * - a torn last journal line is dropped and reported, the rest loads;
 * - a corrupt journal line, a truncated snapshot or a damaged snapshot.json of
 *   an older build stops the server with the file, the line and the reason,
 *   leaves the files untouched and writes a recovered copy to start from.
 */
import { createHash } from 'node:crypto'
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, test } from 'vitest'
import { ACCOUNT } from '../../core/index.ts'
import type { Snapshot } from '../../core/index.ts'
import { createCrmService } from '../../core/index.ts'
import { DiskStorage } from '../storage/disk-storage.ts'
import { exportText } from '../storage/export-file.ts'
import { startRingside, type RingsideServer, type RingsideServerOptions } from '../server.ts'
import { freePortPair, killRunningServers, removeScratchDirs, runCli, scratchDir, waitForServer, type CliRun } from './support.ts'

const AUTH = { authorization: `Bearer ${ACCOUNT.privateAppToken}`, 'content-type': 'application/json' }

async function start(data: string, extra: string[] = []): Promise<{ run: CliRun; origin: string }> {
  const port = await freePortPair()
  const run = runCli(['--port', String(port), '--data', data, '--no-pages', ...extra])
  const origin = `http://127.0.0.1:${port}`
  await waitForServer(origin, run)
  return { run, origin }
}

/** The server in this process (for the cases where the CLI's output is not what is tested). */
async function inProcess(data: string, options: Partial<RingsideServerOptions> = {}): Promise<{ server: RingsideServer; origin: string }> {
  const server = await startRingside({ port: await freePortPair(), data, pages: 'none', ...options })
  return { server, origin: server.url.slice(0, -1) }
}

function createTicket(origin: string, subject: string): Promise<Response> {
  return fetch(`${origin}/crm/v3/objects/tickets`, { method: 'POST', headers: AUTH, body: JSON.stringify({ properties: { subject, hs_pipeline_stage: '1' } }) })
}

async function kill9(run: CliRun): Promise<void> {
  run.child.kill('SIGKILL')
  await run.exited
}

/** Subjects of every ticket, read page by page. */
async function ticketSubjects(origin: string): Promise<string[]> {
  const subjects: string[] = []
  let after: string | undefined
  do {
    const response = await fetch(`${origin}/crm/v3/objects/tickets?limit=100&properties=subject${after ? `&after=${after}` : ''}`, { headers: AUTH })
    const page = (await response.json()) as { results: Array<{ properties: { subject?: string } }>; paging?: { next?: { after: string } } }
    subjects.push(...page.results.map((r) => r.properties.subject ?? ''))
    after = page.paging?.next?.after
  } while (after)
  return subjects
}

afterEach(killRunningServers)
afterAll(removeScratchDirs)

const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')

describe('server durability', { timeout: 60_000 }, () => {
  test('kill -9 at random moments under concurrent writes, with a compaction every few writes: every write that got a 2xx is there after the restart', async () => {
    const data = scratchDir('kill9')
    const acknowledged: string[] = []
    let next = 0
    // At least two crashes; each kill lands 150 to 550 ms after a stream of 8 concurrent writers got its twelfth 2xx (seeded
    // pseudo-random, so a failure can be replayed). From the second on, a kill waits for a compaction under way
    // (its old journal still there, its snapshot being written); one must land inside one (up to five kills).
    let seed = 23
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
    const oldJournal = join(data, 'journal.old.jsonl')
    let duringCompaction = 0
    for (let kills = 0; kills < 2 || (duringCompaction === 0 && kills < 5); kills++) {
      const server = await start(data, ['--compact-every', '8'])
      if (kills > 0) {
        const found = new Set(await ticketSubjects(server.origin))
        expect(acknowledged.filter((s) => !found.has(s)), `acknowledged writes missing after kill ${kills}`).toEqual([])
      }
      let killed = false
      const before = acknowledged.length
      const writers = Array.from({ length: 8 }, async () => {
        while (!killed) {
          const subject = `durable ${next++}`
          try {
            const response = await createTicket(server.origin, subject)
            // Read the whole answer: a 2xx counts only once it was received.
            await response.arrayBuffer()
            if (response.status === 201) acknowledged.push(subject)
          } catch {
            return // the connection died with the server
          }
        }
      })
      // A dozen writes acknowledged first, however busy the machine (a slow one may answer fewer than that within
      // the random delay, and the run would then have too few writes to lose).
      const someUntil = Date.now() + 20_000
      while (acknowledged.length < before + 12 && Date.now() < someUntil) await new Promise((done) => setTimeout(done, 5))
      await new Promise((done) => setTimeout(done, 150 + random() * 400))
      const waitUntil = Date.now() + 2000
      while (kills > 0 && Date.now() < waitUntil && !existsSync(oldJournal)) await new Promise((done) => setImmediate(done))
      server.run.child.kill('SIGKILL')
      killed = true
      await server.run.exited
      if (existsSync(oldJournal)) duringCompaction++
      await Promise.all(writers)
    }
    expect(duringCompaction, 'none of the kills landed inside a compaction').toBeGreaterThan(0)
    const last = await start(data)
    try {
      expect(last.run.output()).toMatch(/loaded the snapshot \(\d+ rows\) and \d+ journal entr(y|ies) in \d+\.\d s/)
      const found = new Set(await ticketSubjects(last.origin))
      expect(acknowledged.length).toBeGreaterThan(20)
      expect(acknowledged.filter((s) => !found.has(s))).toEqual([])
    } finally {
      await kill9(last.run)
    }
  })

  test('a torn last journal line is dropped and reported, the journal kept; a damaged line or a cut snapshot refuses to start, keeps the files and writes a recovered copy', async () => {
    const data = scratchDir('corrupt')
    const journal = join(data, 'journal.jsonl')
    const snapshot = join(data, 'snapshot.ndjson')
    const first = await inProcess(data)
    for (const subject of ['one', 'two', 'three']) expect((await createTicket(first.origin, subject)).status).toBe(201)
    await first.server.close()

    // A crash in the middle of an append: the last line has no newline and is cut.
    const whole = readFileSync(journal, 'utf8')
    const tornLine = whole.split('\n').length
    const cut = '0badc0de {"rows":[{"table":"crm_tickets","id":"99","row":{"id":"9'
    appendFileSync(journal, cut)
    const torn = await inProcess(data)
    try {
      const warning = torn.server.warnings.join('\n')
      expect(warning).toContain(`${journal} line ${tornLine}: dropped a torn last line`)
      const kept = /kept as (\S+)\.$/m.exec(warning)?.[1] ?? ''
      expect(readFileSync(kept, 'utf8')).toBe(`${whole}${cut}`)
      expect(await ticketSubjects(torn.origin)).toEqual(expect.arrayContaining(['one', 'two', 'three']))
      for (const subject of ['four', 'five', 'six']) expect((await createTicket(torn.origin, subject)).status).toBe(201)
    } finally {
      await torn.server.close()
    }
    // The torn line was cut off before the journal went on.
    expect(readFileSync(journal, 'utf8').startsWith(whole)).toBe(true)
    expect(readFileSync(journal, 'utf8')).not.toContain('0badc0de')

    // A changed byte in the middle of the journal: the CLI refuses, says where, changes nothing, writes a recovered copy.
    const lines = readFileSync(journal, 'utf8').split('\n')
    const damaged = lines.findIndex((line) => line.includes('"two"'))
    writeFileSync(journal, lines.map((line, i) => (i === damaged ? line.replace('"two"', '"tw0"') : line)).join('\n'))
    const before = { journal: digest(journal), snapshot: digest(snapshot) }
    const corrupt = runCli(['--port', String(await freePortPair()), '--data', data, '--no-pages'])
    expect(await corrupt.exited).toBe(1)
    expect(corrupt.output()).toMatch(new RegExp(`^ringside: ${escape(journal)} line ${damaged + 1}: checksum mismatch`, 'm'))
    const recovered = /saved to (\S+recovered-\S+\.json):/.exec(corrupt.output())?.[1] ?? ''
    expect(corrupt.output()).toContain(`--data ${data} --fresh --import ${recovered}`)
    expect({ journal: digest(journal), snapshot: digest(snapshot) }).toEqual(before)
    // The recovered copy holds everything readable (all but the damaged entry) and starts as the message says.
    const fromCopy = await inProcess(data, { fresh: true, importFile: recovered })
    try {
      expect(await ticketSubjects(fromCopy.origin)).toEqual(expect.arrayContaining(['one', 'three', 'four', 'five', 'six']))
    } finally {
      await fromCopy.server.close()
    }

    // A snapshot cut short.
    const text = readFileSync(snapshot, 'utf8')
    writeFileSync(snapshot, text.slice(0, Math.floor(text.length / 2)))
    const snapshotDigest = digest(snapshot)
    await expect(inProcess(data)).rejects.toThrow(new RegExp(`^${escape(snapshot)} line \\d+: .*the file is cut off here`))
    expect(digest(snapshot)).toBe(snapshotDigest)
  })
})

describe('an older build\'s damaged snapshot.json', { timeout: 60_000 }, () => {
  test('refuses to start with the file and the line, keeps the files, and writes a recovered copy to start from', async () => {
    const data = scratchDir('legacy-damaged')
    const first = await inProcess(data)
    for (const subject of ['one', 'two', 'three']) expect((await createTicket(first.origin, subject)).status).toBe(201)
    await first.server.close()
    // The folder as an older build left it: the whole database in snapshot.json, one row per line.
    const db = createCrmService({ seed: false }).db
    new DiskStorage(data).load(db)
    const legacy = join(data, 'snapshot.json')
    writeFileSync(legacy, exportText({ ...db.snapshot(), journalGeneration: 'older-build' } as Snapshot))
    rmSync(join(data, 'snapshot.ndjson'))
    rmSync(join(data, 'journal.jsonl'))

    // A row cut in the middle (a bad sector, an editor that crashed).
    const lines = readFileSync(legacy, 'utf8').split('\n')
    const damaged = lines.findIndex((line) => line.includes('"two"'))
    writeFileSync(legacy, lines.map((line, i) => (i === damaged ? line.slice(0, line.indexOf('"two"')) : line)).join('\n'))
    const before = digest(legacy)
    const error = await inProcess(data).then(
      () => undefined,
      (e: unknown) => e as Error,
    )
    expect(error?.message).toMatch(new RegExp(`^${escape(legacy)} line ${damaged + 1}: not valid JSON`))
    const recovered = /saved to (\S+recovered-\S+\.json):/.exec(error?.message ?? '')?.[1] ?? ''
    expect(error?.message).toContain(`--data ${data} --fresh --import ${recovered}`)
    expect(digest(legacy)).toBe(before)

    // The copy holds every row but the damaged one, and starts as the message says.
    const fromCopy = await inProcess(data, { fresh: true, importFile: recovered })
    try {
      const subjects = await ticketSubjects(fromCopy.origin)
      expect(subjects).toEqual(expect.arrayContaining(['one', 'three']))
      expect(subjects).not.toContain('two')
    } finally {
      await fromCopy.server.close()
    }
    expect(existsSync(`${legacy}.previous`)).toBe(true)
  })
})

describe('server CLI data flags', { timeout: 60_000 }, () => {
  test('--export-on-exit writes an export on SIGTERM; --import loads it; --widget registers a widget; --fresh starts over and keeps the old files aside', async () => {
    const exported = join(scratchDir('export'), 'export.json')
    const first = await start(scratchDir('export-src'), ['--export-on-exit', exported])
    expect((await createTicket(first.origin, 'Carried over')).status).toBe(201)
    first.run.child.kill('SIGTERM')
    expect(await first.run.exited).toBe(0)
    expect(first.run.output()).toContain(`Exported the data to ${exported}.`)
    expect(JSON.parse(readFileSync(exported, 'utf8'))).toMatchObject({ format: 'ringside-crm-db' })

    const data = scratchDir('import-dst')
    const second = await inProcess(data, { importFile: exported, widgetUrl: 'http://127.0.0.1:9/my-widget/' })
    try {
      expect(await ticketSubjects(second.origin)).toContain('Carried over')
      // --widget changes the registration of the data it runs on (here, the imported one).
      const settings = await fetch(`${second.origin}/crm/v3/extensions/calling/${ACCOUNT.appId}/settings?hapikey=${ACCOUNT.developerApiKey}`)
      expect(((await settings.json()) as { url: string }).url).toBe('http://127.0.0.1:9/my-widget/')
    } finally {
      await second.server.close()
    }

    // A data folder's snapshot imports as it is, like an export.
    const copy = await inProcess(scratchDir('import-snapshot'), { importFile: join(data, 'snapshot.ndjson') })
    try {
      expect(await ticketSubjects(copy.origin)).toContain('Carried over')
    } finally {
      await copy.server.close()
    }

    const third = await inProcess(data, { fresh: true })
    try {
      expect(await ticketSubjects(third.origin)).not.toContain('Carried over')
      expect(third.server.notes.join('\n')).toContain(`kept as ${join(data, 'snapshot.ndjson.previous')}`)
    } finally {
      await third.server.close()
    }

    const bad = join(scratchDir('bad-import'), 'bad.json')
    writeFileSync(bad, '{"hello": "world"}')
    await expect(inProcess(data, { importFile: bad })).rejects.toThrow(`--import ${bad}: Not a Ringside database export`)
  })
})

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
