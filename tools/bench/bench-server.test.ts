// `npm run bench -- --only server` at a small size: the section runs against
// a real server (start, load, search, SIGKILL and clean restarts) and writes
// its figures to the report. Times are not checked here (the bench reports
// them against their targets); that no acknowledged write is lost across
// either restart is.
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'

const root = resolve(import.meta.dirname, '../..')

it('the server section runs at 2,000 contacts and writes every figure with its baseline to the report', { timeout: 90_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ringside-bench-test-'))
  try {
    const report = join(dir, 'bench.json')
    const { stdout } = await promisify(execFile)(process.execPath, ['tools/bench/bench.mjs', '--only', 'server', '--server-count', '2000', '--server-time', '200', '--report', report], { cwd: root })
    expect(stdout).toContain('## Server mode at 2,000 contacts')
    const { server } = JSON.parse(readFileSync(report, 'utf8'))
    expect(server.count).toBe(2000)
    const numbers = [
      server.raw_fsync.empty.lines_per_s,
      server.raw_fsync.loaded.p50_us,
      server.single_post.empty.per_s,
      server.single_post.loaded.ratio_to_raw_fsync,
      server.single_post.loaded.p99_ms,
      server.batch_create.records_per_s,
      server.search.email_eq.median_ms,
      server.search.query.p99_ms,
      server.search.get_by_id.median_ms,
      server.rss_mb.loaded,
      server.rss_mb.empty,
      server.restart.first_start_empty_ms,
      server.restart.after_sigkill.first_answer_ms,
      server.restart.after_clean_stop.first_answer_ms,
    ]
    for (const n of numbers) expect(n).toBeGreaterThan(0)
    expect(server.search.email_eq.answers_not_one).toBe(0)
    expect(Object.keys(server.met).sort()).toEqual(
      ['batch_create', 'nothing_lost', 'restart_after_clean_stop', 'restart_after_sigkill', 'rss', 'search_email_eq', 'search_query', 'single_post_p50_empty', 'single_post_p50_loaded', 'single_post_ratio_empty', 'single_post_ratio_loaded'].sort(),
    )
    // Durability is not a timing: every write answered 2xx is there after SIGKILL and after a clean stop.
    const { after_sigkill: kill, after_clean_stop: stop } = server.restart
    expect(kill.acknowledged).toBeGreaterThan(0)
    expect(kill.acknowledged_found).toBe(kill.acknowledged)
    expect(kill.count_after).toBeGreaterThanOrEqual(kill.count_before + kill.acknowledged)
    expect(stop.last_writes).toBeGreaterThan(0)
    expect(stop.last_writes_found).toBe(stop.last_writes)
    expect(stop.count_after).toBe(stop.count_before)
    expect(server.nothing_lost).toBe(true)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
