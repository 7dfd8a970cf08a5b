/**
 * The journal's format and file: `journal.jsonl` holds one checksummed line
 * per committed transaction after the snapshot, `{"rows":[{table,id,row}]}`
 * (row null = deleted); its first line names its generation, and, when a
 * background compaction started it, the generation it continues. Here: how
 * the journal is opened for appending, and how a journal file is read back,
 * with how far it is whole and what in it is damaged.
 */
import { constants, readFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import type { CommitRow } from '../../core/index.ts'
import { linesOf, readLine, type Damage } from './line-files.ts'

/** The file operations the journal writer uses; tests pass a fake that counts and fails. */
export interface JournalFile {
  append(text: string): Promise<void>
  /** Make what was appended durable (an fdatasync; nothing to do where each append already is). */
  sync(): Promise<void>
  truncate(bytes: number): Promise<void>
  close(): Promise<void>
}

export type OpenJournal = (path: string) => Promise<JournalFile>

/**
 * The journal, opened with O_DSYNC where the platform has it: a write returns
 * once its bytes are on disk (what a write and an fdatasync give), so a group
 * of lines costs one trip to Node's thread pool instead of two, and `sync` has
 * nothing left to do. Without O_DSYNC, `sync` is an fdatasync.
 */
export const openJournalFile: OpenJournal = async (path) => {
  const dsync = constants.O_DSYNC as number | undefined
  const handle = await open(path, dsync === undefined ? 'a' : constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | dsync)
  return {
    append: async (text) => {
      const bytes = Buffer.from(text)
      // A regular file takes the whole write unless the disk is full (which throws); a short one is continued.
      for (let offset = 0; offset < bytes.length; ) {
        const { bytesWritten } = await handle.write(bytes, offset)
        if (bytesWritten === 0) throw new Error(`The journal took none of ${bytes.length - offset} bytes.`)
        offset += bytesWritten
      }
    },
    sync: () => (dsync === undefined ? handle.datasync() : Promise.resolve()),
    truncate: (bytes) => handle.truncate(bytes),
    close: () => handle.close(),
  }
}

function isRow(value: unknown): value is CommitRow {
  if (typeof value !== 'object' || value === null) return false
  const row = value as Record<string, unknown>
  return typeof row.table === 'string' && typeof row.id === 'string' && 'row' in row
}
/** A journal file as read: its header and entries, how far it is whole, and its damage. */
export interface JournalRead {
  path: string
  generation: string
  /** The generation this journal continues (written by a background compaction). */
  after: string | undefined
  entries: CommitRow[][]
  /** Whether its lines carry checksums (this build's), so rows need no schema check. */
  checksummed: boolean
  /** Bytes up to the end of the last whole line. */
  wholeBytes: number
  /** A torn last line (no newline at its end, unreadable): a crash mid-append. */
  torn: Damage | undefined
  /** Any other damage. */
  damage: Damage[]
}
export function readJournal(path: string): JournalRead {
  const text = readFileSync(path, 'utf8')
  const read: JournalRead = { path, generation: '', after: undefined, entries: [], checksummed: /^[0-9a-f]{8} /.test(text), wholeBytes: 0, torn: undefined, damage: [] }
  let number = 0
  for (const { line, complete } of linesOf(text)) {
    number++
    const parsed = readLine(line)
    if ('problem' in parsed) {
      if (!complete) read.torn = { line: number, problem: `${parsed.problem}; ${Buffer.byteLength(line)} bytes without a newline` }
      else read.damage.push({ line: number, problem: parsed.problem })
      continue
    }
    if (complete) read.wholeBytes += Buffer.byteLength(line) + 1
    if (number === 1) {
      const header = parsed.value as { journalGeneration?: unknown; after?: unknown } | null
      if (typeof header?.journalGeneration !== 'string') {
        read.damage.push({ line: 1, problem: 'expected the journal header {"journalGeneration": "…"}' })
        continue
      }
      read.generation = header.journalGeneration
      if (typeof header.after === 'string') read.after = header.after
      continue
    }
    const rows = (parsed.value as { rows?: unknown } | null)?.rows
    if (!Array.isArray(rows) || !rows.every(isRow)) read.damage.push({ line: number, problem: 'expected {"rows": [{"table", "id", "row"}, …]}' })
    else if (complete) read.entries.push(rows)
    else read.torn = { line: number, problem: `a whole entry without its newline (${Buffer.byteLength(line)} bytes)` }
  }
  return read
}
