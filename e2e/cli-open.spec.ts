import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { expect, test } from '@playwright/test'
import { chromiumPath, ORIGINS, PORTS } from './origins.ts'
import { e2eDataDir } from './web-servers.ts'

const root = resolve(import.meta.dirname, '..')

/** `ringside open <args> --headless` from this checkout's package build, its output as it comes. */
function ringsideOpen(...args: string[]) {
  const child = spawn(process.execPath, [resolve(root, 'bin/ringside.mjs'), 'open', ...args, '--headless'], {
    cwd: root,
    env: { ...process.env, CHROMIUM_PATH: chromiumPath(), NO_COLOR: '1', FORCE_COLOR: undefined },
  })
  const output = { stdout: '', stderr: '' }
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()))
  const exited = new Promise<number | null>((done) => child.once('exit', done))
  return { child, output, exited }
}

/**
 * `ringside open --headless` on a page that cannot open: nothing is left to look at and no window to close, so
 * the command says why and ends with exit 2 (headed, the browser stays open on the error page).
 */
test('ringside open --headless on a page that answers 404 ends with one sentence and exit 2', async () => {
  // A file's path (it has a dot) is the server's, not a harness route.
  const run = ringsideOpen('/no-such-page.html', '--url', ORIGINS.harness)
  expect(await run.exited).toBe(2)
  expect(run.output.stderr.trim()).toBe(`could not open ${ORIGINS.harness}/no-such-page.html: it answered 404`)
})

test("ringside open /contacts/1 without --url: the server of its data folder, at the harness's route #/contacts/1", async () => {
  const run = ringsideOpen('/contacts/1', '--data', e2eDataDir(PORTS.harness))
  await expect.poll(() => run.output.stdout, { timeout: 20_000 }).toContain(' in Chromium;')
  expect(run.output.stdout).toContain(`ringside open: ${ORIGINS.harness}/#/contacts/1 in Chromium; the SDK's CDN URLs (jsDelivr, unpkg) are answered by ${ORIGINS.harness}.`)
  // The page answers (a 404 would end a headless run with exit 2 and a sentence); then Ctrl+C closes the browser.
  await new Promise((done) => setTimeout(done, 1_500))
  run.child.kill('SIGINT')
  expect(await run.exited).toBe(0)
  expect(run.output.stderr).toBe('')
})

test('ringside open with no server on its data folder: one sentence, exit 2, no browser', async () => {
  const run = ringsideOpen('--data', resolve(root, 'test-results', 'no-server-here'))
  expect(await run.exited).toBe(2)
  expect(run.output.stderr.trim()).toMatch(/^ringside: no Ringside server holds .*no-server-here: start one with `ringside start --data .*`, or pass --url <the URL of a running one>\.$/)
})
