import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { linesOfFile, parseLineSnapshot, writeLineSnapshot } from './line-files.ts'

test('a snapshot written a buffer at a time reads back row for row: long rows, multi-byte text, many chunks', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ringside-lines-'))
  try {
    const path = join(dir, 'snapshot.ndjson')
    const many = Array.from({ length: 5000 }, (_, i) => ({ text: `row ${i} ${'é€😀'.repeat(i % 50)}`, n: i }))
    // Longer than the writer's buffer and than a piece the reader reads: both must grow for it.
    const huge = { text: 'x'.repeat(5 << 20) }
    const tables = [
      { name: 'many', ids: many.map((_, i) => String(i + 1)), rows: many },
      { name: 'huge', ids: ['a', 'b'], rows: [huge, { text: 'after' }] },
      { name: 'empty', ids: [], rows: [] },
    ]
    const bytes = await writeLineSnapshot(path, { exportedAt: new Date(0).toISOString(), tables }, 'gen-1', 3)
    const text = readFileSync(path, 'utf8')
    expect(bytes).toBe(Buffer.byteLength(text))
    const read = parseLineSnapshot(text)
    expect(read.damage).toEqual([])
    expect(read.journalGeneration).toBe('gen-1')
    expect(read.journalSkip).toBe(3)
    expect(read.tables).toEqual(tables)
    // Read a piece at a time from the file (the huge row is longer than a piece), the same.
    expect(parseLineSnapshot(linesOfFile(path))).toEqual(read)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
