import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '..')
const work = mkdtempSync(join(tmpdir(), 'ringside-cli-import-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** `ringside <args>` from the sources, in a child process (fail() exits it). */
function ringside(...args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', `import('./package/cli.ts').then((cli) => cli.main(['node', 'ringside', ...${JSON.stringify(args)}]))`], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined },
  })
  return { code: run.status, stderr: run.stderr, stdout: run.stdout }
}

describe('ringside import --data', () => {
  it('a refused file is one sentence, exit 1, and the data folder is left unlocked and unchanged', () => {
    const data = join(work, 'refused')
    const bad = join(work, 'cut.json')
    writeFileSync(bad, '{"format":')
    const run = ringside('import', '--data', data, bad)
    expect(run.code).toBe(1)
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^ringside: .*cut\.json: .*Nothing was imported\.$/)])
    expect(existsSync(join(data, 'server.lock'))).toBe(false)
    // The lock is free: an import into the same folder, which takes the lock, runs.
    const good = join(work, 'good.json')
    expect(ringside('export', '--data', join(work, 'seeded'), good).code).toBe(0)
    const again = ringside('import', '--data', data, good)
    expect(again.stderr).toBe('')
    expect(again.code).toBe(0)
  }, 120_000)
})
