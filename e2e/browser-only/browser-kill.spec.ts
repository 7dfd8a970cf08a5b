/**
 * Browser-only mode's answer to `kill -9`: the whole browser (every Chromium
 * process) is killed with SIGKILL in the middle of a burst of writes, then
 * started again on the same profile. Every write that was answered 201
 * before the kill must be there.
 *
 * This spec starts its own Chromium (with a profile directory of its own)
 * and drives it over the DevTools protocol, since Playwright's browsers
 * cannot be killed mid-test.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, expect, test, type Browser } from '@playwright/test'
import { chromiumPath } from '../origins.ts'
import { allTickets, LIVE_LIST, STATIC } from './support.ts'
import { BROWSER_ARGS } from '../../kit/browser/browser-args.ts'

const BURST = 100
const KILL_AFTER = 50

/** Start Chromium on `profile`; resolves with the process and a CDP connection. */
async function launch(profile: string): Promise<{ child: ChildProcess; browser: Browser }> {
  const child = spawn(
    chromiumPath(),
    [
      '--headless=new',
      ...BROWSER_ARGS,
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    // Its own process group, so the kill takes every Chromium process at once, as a crash would.
    { detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
  )
  const endpoint = await new Promise<string>((resolve, reject) => {
    let text = ''
    child.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString()
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(text)
      if (match) resolve(match[1] as string)
    })
    child.once('exit', (code) => reject(new Error(`Chromium exited (${code}) before it listened: ${text}`)))
  })
  return { child, browser: await chromium.connectOverCDP(endpoint) }
}

function killAll(child: ChildProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  process.kill(-(child.pid as number), 'SIGKILL')
  return exited
}

test(`SIGKILL of the whole browser mid-burst (${BURST} writes): every write answered 2xx is there after a restart`, async ({}, testInfo) => {
  const profile = await mkdtemp(join(tmpdir(), 'ringside-profile-'))
  try {
    const first = await launch(profile)
    const acked = new Map<string, string>()
    const page = await first.browser.contexts()[0]!.newPage()
    await page.goto(`${STATIC}${LIVE_LIST}`)
    await page.waitForFunction(() => window.__crm !== undefined)
    let killed: Promise<void> | undefined
    await page.exposeBinding('__acked', (_source, id: string, subject: string) => {
      if (killed) return
      acked.set(id, subject)
      if (acked.size === KILL_AFTER) killed = killAll(first.child)
    })
    // One write after another, so that the kill lands while writes are still being made and saved.
    void page
      .evaluate(async (burst) => {
        const report = (window as unknown as { __acked: (id: string, subject: string) => void }).__acked
        for (let i = 0; i < burst; i++) {
          const subject = `before-kill ${i}`
          const response = await fetch('/crm/v3/objects/tickets', {
            method: 'POST',
            headers: { authorization: 'Bearer pat-local', 'content-type': 'application/json' },
            body: JSON.stringify({ properties: { subject, hs_pipeline_stage: '1' } }),
          })
          if (response.status === 201) report(((await response.json()) as { id: string }).id, subject)
        }
      }, BURST)
      .catch(() => undefined) // the browser dies under it
    await expect.poll(() => killed !== undefined, { timeout: 15_000 }).toBe(true)
    await killed

    const second = await launch(profile)
    try {
      const again = await second.browser.contexts()[0]!.newPage()
      await again.goto(`${STATIC}${LIVE_LIST}`)
      await again.waitForFunction(() => window.__crm !== undefined)
      expect(await again.evaluate(() => window.__crm?.restored)).toBe(true)
      const found = await allTickets(again)
      const lost = [...acked].filter(([id, subject]) => found.get(id) !== subject)
      const burstFound = [...found.values()].filter((subject) => subject.startsWith('before-kill ')).length
      const figures = `${acked.size} writes answered 201 before SIGKILL of the browser; ${acked.size - lost.length} found after the restart (${burstFound} of the ${BURST} sent in all)`
      testInfo.annotations.push({ type: 'durability', description: figures })
      console.log(`[browser-only durability] ${figures}`)
      expect(acked.size).toBe(KILL_AFTER)
      expect(lost, figures).toEqual([])
    } finally {
      await killAll(second.child)
    }
  } finally {
    await rm(profile, { recursive: true, force: true })
  }
})
