/**
 * Reading the line format of the server's data files, in one place for the
 * server (its snapshot and journal at startup) and the import (a data
 * folder's `snapshot.ndjson` imported as it is, see import-stream.ts), on
 * the server or in a browser.
 * Every line is the CRC-32 of a JSON text (8 hex digits), a space, and the
 * JSON text; a line whose checksum does not match is damage, not a value.
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
 * No Node API here: the CRC-32 is given by the caller (`lineFormat`), the
 * server's native one or `crc-32` in a browser (`portableLines`).
 */
import CRC32 from 'crc-32'
import type { TableColumns } from './snapshot-format.ts'
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION } from './snapshot-format.ts'

/** The CRC-32 (IEEE) of a text's UTF-8 bytes, or of bytes, as an unsigned number. */
export type Crc32 = (data: string | Uint8Array) => number

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

export const SNAPSHOT_LAYOUT = 'ndjson'

export interface LineSnapshot {
  journalGeneration: unknown
  /** How many entries at the start of that journal the snapshot already holds (a snapshot written after a restart). */
  journalSkip: number
  /** The rows as columns: no [id, row] pair outlives its line. */
  tables: TableColumns[]
  rows: number
}

/** One line as a reader gives it: its text, whether a newline ends it, and (a file's reader) its UTF-8 bytes. */
export interface Line {
  line: string
  complete: boolean
  bytes?: Uint8Array
}

/** Columns as the [id, row] pairs of an export's table. */
export function pairsOf(table: TableColumns): Array<[string, unknown]> {
  return table.ids.map((id, i) => [id, table.rows[i]])
}

/** Where a line reader puts what it reads: a table line, then its rows. */
export interface LineRowSink {
  table(name: string): void
  row(id: string, row: unknown): void
}

/** See LineFormat.lineReader. */
export interface LineReader {
  push(line: Line): void
  end(): void
  readonly damage: Damage[]
  readonly journalGeneration: unknown
  readonly journalSkip: number
  readonly rows: number
}

/** A damaged line: its 1-based number and what is wrong. */
export interface Damage {
  line: number
  problem: string
}

/** A line snapshot with a damaged line, as an import reports it. */
export class DamagedLineError extends SyntaxError {
  override name = 'DamagedLineError'

  constructor(
    readonly line: number,
    readonly problem: string,
  ) {
    super(`line ${line}: ${problem}.`)
  }
}

/** The readers of the line format, each line's checksum taken with `crc32`. */
export interface LineFormat {
  /** A JSON text as one checksummed line (with its newline). */
  checksummed(json: string): string
  /**
   * What a line holds: its JSON value, or why it cannot be read. A line
   * without a checksum (an older build's) is parsed as plain JSON. `bytes`,
   * when given, are the line's UTF-8 bytes: the checksum is taken over them
   * instead of encoding the text again.
   */
  readLine(line: string, bytes?: Uint8Array): { value: unknown } | { problem: string }
  /** Whether a file's first line is the header of a checksummed snapshot. */
  isLineSnapshot(firstLine: string): boolean
  /**
   * Read a snapshot in the line format, from its text or its lines (a
   * server reads its file a piece at a time). Never throws on damage:
   * returns every row it could read, and the damage (empty when the file is
   * whole).
   */
  parseLineSnapshot(input: string | Iterable<Line>): LineSnapshot & { damage: Damage[] }
  /**
   * The same reader, fed one line at a time: each row goes to `sink` as it
   * is read, and the damage found so far is in `damage` (an import stops at
   * the first). `end()` after the last line.
   */
  lineReader(sink: LineRowSink): LineReader
}

/** A line's checksum as written before its JSON: 8 lower-case hex digits, then a space. */
export const CHECKSUM_WIDTH = 9
export const checksumText = (crc: number): string => `${crc.toString(16).padStart(CHECKSUM_WIDTH - 1, '0')} `
const CHECKSUM_PREFIX = /^[0-9a-f]{8} /

export function lineFormat(crc32: Crc32): LineFormat {
  function checksummed(json: string): string {
    return `${checksumText(crc32(json))}${json}\n`
  }

  function readLine(line: string, bytes?: Uint8Array): { value: unknown } | { problem: string } {
    let json = line
    if (line.charCodeAt(CHECKSUM_WIDTH - 1) === 32 && CHECKSUM_PREFIX.test(line)) {
      json = line.slice(CHECKSUM_WIDTH)
      if (crc32(bytes ? bytes.subarray(CHECKSUM_WIDTH) : json) !== parseInt(line.slice(0, CHECKSUM_WIDTH - 1), 16)) return { problem: 'checksum mismatch (the line was changed or damaged)' }
    }
    try {
      return { value: JSON.parse(json) }
    } catch (error) {
      return { problem: `not valid JSON (${error instanceof Error ? error.message : String(error)})` }
    }
  }

  function isLineSnapshot(firstLine: string): boolean {
    const read = readLine(firstLine)
    return 'value' in read && typeof read.value === 'object' && read.value !== null && (read.value as { layout?: unknown }).layout === SNAPSHOT_LAYOUT
  }

  function lineReader(sink: LineRowSink): LineReader {
    const damage: Damage[] = []
    const state = { journalGeneration: undefined as unknown, journalSkip: 0, rows: 0 }
    /** Rows read into the current table, or null when no table (or a damaged table line) came last. */
    let current: number | null = null
    let expected = 0
    let ended = false
    let number = 0
    let endsWithNewline = true
    function push({ line, complete, bytes }: Line): void {
      number++
      endsWithNewline = complete
      if (ended) {
        damage.push({ line: number, problem: 'text after the end line' })
        return
      }
      const read = readLine(line, bytes)
      if ('problem' in read) {
        damage.push({ line: number, problem: complete ? read.problem : `${read.problem}; the file is cut off here` })
        // The rows after a damaged table line belong to a table we cannot name.
        if (/^([0-9a-f]{8} )?\{"table"/.test(line)) current = null
        return
      }
      const value = read.value as Record<string, unknown> | unknown[] | null
      if (number === 1) {
        if (typeof value !== 'object' || value === null || Array.isArray(value) || value.layout !== SNAPSHOT_LAYOUT) {
          damage.push({ line: 1, problem: 'not the header of a Ringside snapshot' })
          return
        }
        if (value.format !== SNAPSHOT_FORMAT || value.version !== SNAPSHOT_VERSION) {
          damage.push({ line: 1, problem: `unsupported snapshot ${JSON.stringify(value.format)} version ${JSON.stringify(value.version)}; this build reads "${SNAPSHOT_FORMAT}" version ${SNAPSHOT_VERSION}` })
          return
        }
        state.journalGeneration = value.journalGeneration
        if (typeof value.journalSkip === 'number') state.journalSkip = value.journalSkip
        return
      }
      if (Array.isArray(value)) {
        if (value.length !== 2 || typeof value[0] !== 'string') damage.push({ line: number, problem: 'expected an [id, row] pair' })
        else if (current === null) damage.push({ line: number, problem: 'a row before any table line' })
        else {
          sink.row(value[0], value[1])
          current++
          state.rows++
        }
        return
      }
      if (typeof value === 'object' && value !== null && typeof value.table === 'string') {
        if (current !== null && current !== expected) damage.push({ line: number, problem: `the table before this line has ${current} rows; its table line said ${expected}` })
        current = 0
        expected = typeof value.rows === 'number' ? value.rows : -1
        sink.table(value.table)
        return
      }
      if (typeof value === 'object' && value !== null && value.end === true) {
        if (current !== null && current !== expected) damage.push({ line: number, problem: `the last table has ${current} rows; its table line said ${expected}` })
        if (value.rows !== state.rows) damage.push({ line: number, problem: `the end line counts ${String(value.rows)} rows; ${state.rows} were read` })
        ended = true
        return
      }
      damage.push({ line: number, problem: 'not a table line, a row or the end line' })
    }
    function end(): void {
      if (!ended) damage.push({ line: number + (endsWithNewline ? 1 : 0), problem: 'the end line is missing: the file is cut short' })
    }
    return {
      push,
      end,
      damage,
      get journalGeneration() {
        return state.journalGeneration
      },
      get journalSkip() {
        return state.journalSkip
      },
      get rows() {
        return state.rows
      },
    }
  }

  function parseLineSnapshot(input: string | Iterable<Line>): LineSnapshot & { damage: Damage[] } {
    const tables: Array<{ name: string; ids: string[]; rows: unknown[] }> = []
    let current: { ids: string[]; rows: unknown[] } | undefined
    const reader = lineReader({
      table(name) {
        current = { ids: [], rows: [] }
        tables.push({ name, ...current })
      },
      row(id, row) {
        current?.ids.push(id)
        current?.rows.push(row)
      },
    })
    for (const line of typeof input === 'string' ? linesOf(input) : input) reader.push(line)
    reader.end()
    return { journalGeneration: reader.journalGeneration, journalSkip: reader.journalSkip, tables, rows: reader.rows, damage: reader.damage }
  }

  return { checksummed, readLine, isLineSnapshot, lineReader, parseLineSnapshot }
}

/** The line format with a CRC-32 written in JavaScript (`crc-32`): for a browser, where Node's is not. */
export const portableLines: LineFormat = lineFormat((data) => (typeof data === 'string' ? CRC32.str(data) : CRC32.buf(data)) >>> 0)
