/**
 * The line format of the server's data files (shared/api/data-lines.ts reads
 * it, here and in a browser), bound to Node's native CRC-32, and the writer
 * of the snapshot. Rows are written as the database holds them and read
 * back without a schema check: the checksum proves they are what this
 * server wrote.
 */
import { crc32 } from 'node:zlib'
import { open } from 'node:fs/promises'
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type Snapshot } from '../shared/api/db.ts'
import { lineFormat, SNAPSHOT_LAYOUT } from '../shared/api/data-lines.ts'

export { linesOf, SNAPSHOT_LAYOUT, type Damage, type LineSnapshot } from '../shared/api/data-lines.ts'

export const { checksummed, readLine, isLineSnapshot, parseLineSnapshot, parseImport } = lineFormat(crc32)

/** About 1 MB of text per write, so that writing a large snapshot lets requests run between writes. */
const CHUNK_CHARS = 1 << 20

/**
 * Write `snapshot` to `path` in the line format (not atomically: the caller
 * writes a temp file and renames it), fsynced. Returns its size in bytes.
 */
export async function writeLineSnapshot(path: string, snapshot: Snapshot, journalGeneration: string, journalSkip = 0): Promise<number> {
  const handle = await open(path, 'w')
  let bytes = 0
  try {
    let chunk = checksummed(JSON.stringify({ format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, layout: SNAPSHOT_LAYOUT, exportedAt: snapshot.exportedAt, journalGeneration, ...(journalSkip > 0 && { journalSkip }) }))
    const flush = async () => {
      await handle.write(chunk)
      bytes += Buffer.byteLength(chunk)
      chunk = ''
    }
    let tables = 0
    let rows = 0
    for (const [name, entries] of Object.entries(snapshot.tables)) {
      tables++
      chunk += checksummed(JSON.stringify({ table: name, rows: entries.length }))
      for (const entry of entries) {
        chunk += checksummed(JSON.stringify(entry))
        rows++
        if (chunk.length >= CHUNK_CHARS) await flush()
      }
    }
    chunk += checksummed(JSON.stringify({ end: true, tables, rows }))
    await flush()
    await handle.sync()
  } finally {
    await handle.close()
  }
  return bytes
}
