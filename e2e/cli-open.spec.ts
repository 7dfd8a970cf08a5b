import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { expect, test } from '@playwright/test'
import { chromiumPath, ORIGINS } from './origins.ts'

/**
 * `ringside open --headless` on a page that cannot open: nothing is left to look at and no window to close, so
 * the command says why and ends with exit 2 (headed, the browser stays open on the error page).
 */
test('ringside open --headless on a page that answers 404 ends with one sentence and exit 2', async () => {
  const root = resolve(import.meta.dirname, '..')
  const child = spawn(process.execPath, [resolve(root, 'bin/ringside.mjs'), 'open', '/no-such-page', '--url', ORIGINS.harness, '--headless'], {
    cwd: root,
    env: { ...process.env, CHROMIUM_PATH: chromiumPath(), NO_COLOR: '1', FORCE_COLOR: undefined },
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const code = await new Promise<number | null>((done) => child.once('exit', done))
  expect(stderr.trim()).toBe(`could not open ${ORIGINS.harness}/no-such-page: it answered 404`)
  expect(code).toBe(2)
})
