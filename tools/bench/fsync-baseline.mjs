// The disk's own pace, the baseline of every durable-write figure of the bench (server-section.mjs,
// engine-compare.mjs): raw append+fsync of a 300-byte line in the folder being measured, and the
// files a run left there.
import { closeSync, fsyncSync, openSync, readdirSync, statSync, unlinkSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { percentile, sorted } from './table.mjs'

/** Raw append+fsync of a 300-byte line, one at a time, for `ms`: the disk's durable write rate. */
function rawFsync(dir, ms) {
  const path = join(dir, 'raw-fsync-baseline.jsonl')
  const head = '{"rows":[{"table":"baseline","id":1,"row":{"text":"'
  const tail = '"}}]}\n'
  const line = Buffer.from(`${head}${'x'.repeat(300 - head.length - tail.length)}${tail}`)
  const fd = openSync(path, 'a')
  const samples = []
  const started = performance.now()
  try {
    while (performance.now() - started < ms || samples.length < 10) {
      const t = performance.now()
      writeSync(fd, line)
      fsyncSync(fd)
      samples.push(performance.now() - t)
    }
  } finally {
    closeSync(fd)
    unlinkSync(path)
  }
  return { samples, elapsedMs: performance.now() - started, lineBytes: line.length }
}

/**
 * `measure()` between two raw append+fsync runs of `ms / 2` each in `dir`
 * (the disk of a shared machine changes pace within seconds): resolves to
 * { raw: { perSecond, p50Ms, p99Ms, beforePerSecond, afterPerSecond, lineBytes }, result }.
 */
export async function withFsyncBaseline(dir, ms, measure) {
  const before = rawFsync(dir, ms / 2)
  const result = await measure()
  const after = rawFsync(dir, ms / 2)
  const all = sorted([...before.samples, ...after.samples])
  const rate = (run) => run.samples.length / (run.elapsedMs / 1000)
  return {
    raw: {
      perSecond: all.length / ((before.elapsedMs + after.elapsedMs) / 1000),
      p50Ms: percentile(all, 50),
      p99Ms: percentile(all, 99),
      beforePerSecond: rate(before),
      afterPerSecond: rate(after),
      lineBytes: before.lineBytes,
    },
    result,
  }
}

/** The files of `dir` (not its folders) and their sizes in bytes. */
export function folderFiles(dir) {
  return Object.fromEntries(readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isFile() ? [[name, statSync(join(dir, name)).size]] : [])))
}
