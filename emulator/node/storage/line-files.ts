/**
 * The line format of the server's data files (emulator/core/data/line-format.ts reads
 * it, here and in a browser), bound to Node's native CRC-32; the writer of
 * the snapshot, and the reader of a file a piece at a time. Rows are written
 * as the database holds them and read back without a schema check: the
 * checksum proves they are what this server wrote.
 */
import { crc32 } from 'node:zlib'
import { closeSync, openSync, readSync } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { setImmediate as endOfTurn } from 'node:timers/promises'
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type RowsNow } from '../../core/data/snapshot-format.ts'
import { CHECKSUM_WIDTH, checksumText, lineFormat, SNAPSHOT_LAYOUT, type Line } from '../../core/data/line-format.ts'

export { linesOf, pairsOf, SNAPSHOT_LAYOUT, type Damage, type LineSnapshot } from '../../core/data/line-format.ts'

/** The line format with Node's native CRC-32. */
export const nodeLines = lineFormat(crc32)
export const { checksummed, readLine, isLineSnapshot, parseLineSnapshot } = nodeLines

/** Bytes read from a file at a time by linesOfFile. */
const READ_BYTES = 4 << 20

/**
 * The lines of a file, as linesOf gives them, each with its UTF-8 bytes;
 * read a piece at a time, so that no text of the whole file is ever held.
 */
export function* linesOfFile(path: string): Generator<Line & { bytes: Uint8Array }> {
  const fd = openSync(path, 'r')
  try {
    let buffer = Buffer.allocUnsafe(READ_BYTES)
    /** Bytes of buffer that hold data; `start` is where the next line begins. */
    let end = 0
    let start = 0
    for (;;) {
      if (start > 0) {
        buffer.copy(buffer, 0, start, end)
        end -= start
        start = 0
      }
      if (end === buffer.length) {
        // A line longer than the buffer: make room for it.
        const larger = Buffer.allocUnsafe(buffer.length * 2)
        buffer.copy(larger, 0, 0, end)
        buffer = larger
      }
      const read = readSync(fd, buffer, end, buffer.length - end, null)
      if (read === 0) break
      end += read
      for (let newline = buffer.indexOf(10, start); newline >= 0 && newline < end; newline = buffer.indexOf(10, start)) {
        const bytes = buffer.subarray(start, newline)
        yield { line: bytes.toString('utf8'), bytes, complete: true }
        start = newline + 1
      }
    }
    if (start < end) {
      const bytes = buffer.subarray(start, end)
      yield { line: bytes.toString('utf8'), bytes, complete: false }
    }
  } finally {
    closeSync(fd)
  }
}

/** About 1 MB per write. */
const CHUNK_BYTES = 1 << 20
/**
 * Rows encoded between two turns of the event loop (a few hundred µs of
 * work): while a compaction writes the snapshot in the background, requests
 * that arrive are served between slices, so none waits behind more than one.
 * Yielding only at each chunk's write would not do: that write ends within a
 * fraction of a millisecond, and the next megabyte of rows (several
 * milliseconds of encoding) would hold every request again.
 */
const ROWS_PER_SLICE = 128

/**
 * Checksummed lines written into one reused buffer and from it to a file:
 * each line's JSON is encoded once, its checksum taken over those bytes, and
 * no text of a line outlives it (a snapshot of a large database makes no
 * garbage that lasts beyond one line).
 */
class LineWriter {
  #buffer = Buffer.allocUnsafe(CHUNK_BYTES + (CHUNK_BYTES >> 2))
  #used = 0
  bytes = 0

  constructor(readonly handle: FileHandle) {}

  /** Whether a write is due. */
  get full(): boolean {
    return this.#used >= CHUNK_BYTES
  }

  /** Add one line (the buffer grows for a line longer than its room: a write is then due). */
  line(json: string): void {
    const length = Buffer.byteLength(json)
    const needed = CHECKSUM_WIDTH + length + 1
    if (this.#used + needed > this.#buffer.length) {
      const larger = Buffer.allocUnsafe(this.#used + needed)
      this.#buffer.copy(larger, 0, 0, this.#used)
      this.#buffer = larger
    }
    const buffer = this.#buffer
    const at = this.#used
    const json0 = at + CHECKSUM_WIDTH
    buffer.write(json, json0, length, 'utf8')
    buffer.write(checksumText(crc32(buffer.subarray(json0, json0 + length))), at, CHECKSUM_WIDTH, 'latin1')
    buffer[json0 + length] = 0x0a
    this.#used = at + needed
  }

  async flush(): Promise<void> {
    if (this.#used === 0) return
    let offset = 0
    while (offset < this.#used) offset += (await this.handle.write(this.#buffer, offset, this.#used - offset)).bytesWritten
    this.bytes += this.#used
    this.#used = 0
  }
}

/**
 * Write `snapshot` to `path` in the line format (not atomically: the caller
 * writes a temp file and renames it), fsynced. Returns its size in bytes.
 */
export async function writeLineSnapshot(path: string, snapshot: RowsNow, journalGeneration: string, journalSkip = 0): Promise<number> {
  const handle = await open(path, 'w')
  try {
    const out = new LineWriter(handle)
    out.line(JSON.stringify({ format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, layout: SNAPSHOT_LAYOUT, exportedAt: snapshot.exportedAt, journalGeneration, ...(journalSkip > 0 && { journalSkip }) }))
    let rows = 0
    for (const table of snapshot.tables) {
      out.line(JSON.stringify({ table: table.name, rows: table.ids.length }))
      for (let i = 0; i < table.ids.length; i++) {
        // The text of JSON.stringify([id, row]), without making the pair.
        out.line(`[${JSON.stringify(table.ids[i])},${JSON.stringify(table.rows[i])}]`)
        rows++
        if (out.full) await out.flush()
        else if (rows % ROWS_PER_SLICE === 0) await endOfTurn()
      }
    }
    out.line(JSON.stringify({ end: true, tables: snapshot.tables.length, rows }))
    await out.flush()
    await handle.sync()
    return out.bytes
  } finally {
    await handle.close()
  }
}
