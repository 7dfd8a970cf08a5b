/**
 * The line format of the server's data files: every line is the CRC-32 of a
 * JSON text (8 hex digits), a space, and the JSON text. A line whose
 * checksum does not match is damage, not a value: the loader says so with
 * the file and the line, instead of reading a flipped bit as data.
 *
 * The snapshot (`snapshot.ndjson`) is one header line, then per table a
 * table line and one line per row, then an end line that counts them, so a
 * file cut short is told apart from a complete one:
 *
 *   <crc> {"format":"ringside-crm-db","version":1,"layout":"ndjson","exportedAt":…,"journalGeneration":…}
 *   <crc> {"table":"crm_contacts","rows":2}
 *   <crc> ["1",{…}]
 *   <crc> ["2",{…}]
 *   <crc> {"end":true,"tables":1,"rows":2}
 *
 * `journalSkip` (when present) says how many entries at the start of that
 * journal the snapshot already holds: a restart that found a compaction cut
 * short writes its snapshot in the background and goes on with the journal.
 *
 * Rows are written as the database holds them and read back without a
 * schema check: the checksum proves they are what this server wrote.
 */
import { crc32 } from 'node:zlib'
import { closeSync, openSync, readSync } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type RowsNow, type TableColumns } from '../shared/api/db.ts'

/** A JSON text as one checksummed line (with its newline). */
export function checksummed(json: string): string {
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`
}

/**
 * What a line holds: its JSON value, or why it cannot be read. A line
 * without a checksum (an older build's) is parsed as plain JSON. `bytes`,
 * when given, are the line's UTF-8 bytes: the checksum is taken over them
 * instead of encoding the text again.
 */
export function readLine(line: string, bytes?: Uint8Array): { value: unknown } | { problem: string } {
  let json = line
  if (line.charCodeAt(8) === 32 && /^[0-9a-f]{8} /.test(line)) {
    json = line.slice(9)
    if (crc32(bytes ? bytes.subarray(9) : json) !== parseInt(line.slice(0, 8), 16)) return { problem: 'checksum mismatch (the line was changed or damaged)' }
  }
  try {
    return { value: JSON.parse(json) }
  } catch (error) {
    return { problem: `not valid JSON (${error instanceof Error ? error.message : String(error)})` }
  }
}

/** The lines of a text, each with whether a newline ends it (the last one may be cut). */
export function* linesOf(text: string): Generator<{ line: string; complete: boolean }> {
  let start = 0
  while (start < text.length) {
    const end = text.indexOf('\n', start)
    if (end < 0) {
      yield { line: text.slice(start), complete: false }
      return
    }
    yield { line: text.slice(start, end), complete: true }
    start = end + 1
  }
}

/** Bytes read from a file at a time by linesOfFile. */
const READ_BYTES = 4 << 20

/**
 * The lines of a file, as linesOf gives them, each with its UTF-8 bytes;
 * read a piece at a time, so that no text of the whole file is ever held.
 */
export function* linesOfFile(path: string): Generator<{ line: string; bytes: Uint8Array; complete: boolean }> {
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

export const SNAPSHOT_LAYOUT = 'ndjson'

/** Whether a file's first line is the header of a checksummed snapshot. */
export function isLineSnapshot(firstLine: string): boolean {
  const read = readLine(firstLine)
  return 'value' in read && typeof read.value === 'object' && read.value !== null && (read.value as { layout?: unknown }).layout === SNAPSHOT_LAYOUT
}

/** About 1 MB per write, so that writing a large snapshot lets requests run between writes. */
const CHUNK_BYTES = 1 << 20

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
    const needed = length + 10
    if (this.#used + needed > this.#buffer.length) {
      const larger = Buffer.allocUnsafe(this.#used + needed)
      this.#buffer.copy(larger, 0, 0, this.#used)
      this.#buffer = larger
    }
    const buffer = this.#buffer
    const at = this.#used
    buffer.write(json, at + 9, length, 'utf8')
    buffer.write(crc32(buffer.subarray(at + 9, at + 9 + length)).toString(16).padStart(8, '0'), at, 8, 'latin1')
    buffer[at + 8] = 0x20
    buffer[at + 9 + length] = 0x0a
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

export interface LineSnapshot {
  journalGeneration: unknown
  /** How many entries at the start of that journal the snapshot already holds (a snapshot written after a restart). */
  journalSkip: number
  tables: TableColumns[]
  rows: number
}

/** A damaged line: its 1-based number and what is wrong. */
export interface Damage {
  line: number
  problem: string
}

/**
 * Read a snapshot in the line format, from its text or its lines
 * (linesOfFile). Never throws on damage: returns every row it could read,
 * and the damage (empty when the file is whole). Rows come as columns: no
 * [id, row] pair outlives its line.
 */
export function parseLineSnapshot(input: string | Iterable<{ line: string; bytes?: Uint8Array; complete: boolean }>): LineSnapshot & { damage: Damage[] } {
  const damage: Damage[] = []
  const tables: Array<TableColumns & { ids: string[]; rows: unknown[] }> = []
  let journalGeneration: unknown
  let journalSkip = 0
  let current: { ids: string[]; rows: unknown[] } | null = null
  let expected = 0
  let rows = 0
  let ended = false
  let number = 0
  let endsWithNewline = true
  const lines: Iterable<{ line: string; bytes?: Uint8Array; complete: boolean }> = typeof input === 'string' ? linesOf(input) : input
  for (const { line, bytes, complete } of lines) {
    number++
    endsWithNewline = complete
    if (ended) {
      damage.push({ line: number, problem: 'text after the end line' })
      continue
    }
    const read = readLine(line, bytes)
    if ('problem' in read) {
      damage.push({ line: number, problem: complete ? read.problem : `${read.problem}; the file is cut off here` })
      // The rows after a damaged table line belong to a table we cannot name.
      if (/^([0-9a-f]{8} )?\{"table"/.test(line)) current = null
      continue
    }
    const value = read.value as Record<string, unknown> | unknown[] | null
    if (number === 1) {
      if (typeof value !== 'object' || value === null || Array.isArray(value) || value.layout !== SNAPSHOT_LAYOUT) {
        damage.push({ line: 1, problem: 'not the header of a Ringside snapshot' })
        continue
      }
      if (value.format !== SNAPSHOT_FORMAT || value.version !== SNAPSHOT_VERSION) {
        damage.push({ line: 1, problem: `unsupported snapshot ${JSON.stringify(value.format)} version ${JSON.stringify(value.version)}; this build reads "${SNAPSHOT_FORMAT}" version ${SNAPSHOT_VERSION}` })
        continue
      }
      journalGeneration = value.journalGeneration
      if (typeof value.journalSkip === 'number') journalSkip = value.journalSkip
      continue
    }
    if (Array.isArray(value)) {
      if (value.length !== 2 || typeof value[0] !== 'string') damage.push({ line: number, problem: 'expected an [id, row] pair' })
      else if (current === null) damage.push({ line: number, problem: 'a row before any table line' })
      else {
        current.ids.push(value[0])
        current.rows.push(value[1])
        rows++
      }
      continue
    }
    if (typeof value === 'object' && value !== null && typeof value.table === 'string') {
      if (current !== null && current.ids.length !== expected) damage.push({ line: number, problem: `the table before this line has ${current.ids.length} rows; its table line said ${expected}` })
      current = { ids: [], rows: [] }
      expected = typeof value.rows === 'number' ? value.rows : -1
      tables.push({ name: value.table, ...current })
      continue
    }
    if (typeof value === 'object' && value !== null && value.end === true) {
      if (current !== null && current.ids.length !== expected) damage.push({ line: number, problem: `the last table has ${current.ids.length} rows; its table line said ${expected}` })
      if (value.rows !== rows) damage.push({ line: number, problem: `the end line counts ${String(value.rows)} rows; ${rows} were read` })
      ended = true
      continue
    }
    damage.push({ line: number, problem: 'not a table line, a row or the end line' })
  }
  if (!ended) damage.push({ line: number + (endsWithNewline ? 1 : 0), problem: 'the end line is missing: the file is cut short' })
  return { journalGeneration, journalSkip, tables, rows, damage }
}

/** Columns as the [id, row] pairs of an export's table. */
export function pairsOf(table: TableColumns): Array<[string, unknown]> {
  return table.ids.map((id, i) => [id, table.rows[i]])
}

/**
 * A file to import: an export (one JSON document), or a snapshot in the
 * line format (so that a data folder's snapshot.ndjson can be imported as
 * it is). Returns the export-shaped value for `Database.restore`, which
 * checks every row; throws SyntaxError for a damaged file.
 */
export function parseImport(text: string): unknown {
  const end = text.indexOf('\n')
  if (!isLineSnapshot(end >= 0 ? text.slice(0, end) : text)) return JSON.parse(text)
  const read = parseLineSnapshot(text)
  const first = read.damage[0]
  if (first) throw new SyntaxError(`line ${first.line}: ${first.problem}.`)
  return { format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, exportedAt: new Date().toISOString(), tables: Object.fromEntries(read.tables.map((table) => [table.name, pairsOf(table)])) }
}
