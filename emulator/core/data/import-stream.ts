/**
 * Reading an import (`POST /_ringside/v1/import`, `--import <file>`) as it
 * streams, within its budget: the one place that reads every kind of file
 * Ringside writes, and the one place its limits are enforced.
 *
 * - An export (one JSON document, compact or pretty-printed) is walked by
 *   ExportScanner: one row's text at a time goes to JSON.parse.
 * - A data folder's `snapshot.ndjson` (the line format) is read a line at a
 *   time by the line reader of data-lines.ts.
 *
 * Either way each row goes straight to `Database.importer`, which checks it
 * against its table's schema and keeps only the checked row: the import
 * never holds the body's text, nor the rows twice. Nothing changes until the
 * caller's `importer.load()`, so a refused import changes nothing.
 */
import { DamagedLineError, type LineFormat } from './line-format.ts'
import { SnapshotError, type SnapshotImporter } from './snapshot-format.ts'
import { ApiError, Category, unsupportedMediaType, validationError } from '../http/errors.ts'
import { ExportScanner, ExportSyntaxError, ValueTooLargeError } from './export-scanner.ts'
import { bodyTooLarge, MAX_BODY_BYTES } from '../http/http.ts'
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION } from './snapshot-format.ts'
import { IMPORT_CONTENT_TYPES } from '../../../shared/crm/data-files.ts'

export interface ImportLimits {
  /** The whole file or body, in bytes. */
  bytes: number
  /** Rows over every table. */
  rows: number
  /** The text of one row (or one line), in characters. */
  rowChars: number
  /** From the first byte to the last, in milliseconds. */
  deadlineMs: number
}

/**
 * The import's budget over HTTP (docs/import.md's "Limits" documents
 * it); every other route keeps MAX_BODY_BYTES. 512 MB is an export of some
 * 1.4 million contacts (100,000 take 37 MB), and the rows it makes fit the
 * server's default heap beside the data they replace. A row is written by
 * one request, so its text is under MAX_BODY_BYTES; four times that leaves
 * room for a pretty-printed export's indentation. The deadline ends before
 * the server's 30 s limit on receiving a whole request, so the answer is
 * this error body, not a cut connection.
 */
export const IMPORT_LIMITS: ImportLimits = {
  bytes: 512 * 1024 * 1024,
  rows: 2_000_000,
  rowChars: 4 * MAX_BODY_BYTES,
  deadlineMs: 25_000,
}

/** The budget of a file on this machine (`--import`, `ringside import --data`): no HTTP request to end, so a longer deadline. */
export const FILE_IMPORT_LIMITS: ImportLimits = { ...IMPORT_LIMITS, deadlineMs: 600_000 }

/** The content types an import body may carry (an export is JSON; a data folder's snapshot is lines of JSON). */
export const IMPORT_PATH = '/_ringside/v1/import'

/** How many characters of the start are enough to tell a line snapshot (its header line is short) from an export. */
const SNIFF_CHARS = 4096

const tooLarge = (message: string, limit: number) => new ApiError(413, Category.PAYLOAD_TOO_LARGE, `${message} Nothing was imported.`, { context: { limit: [String(limit)] } })

/** The 413 for a body that says, or turns out, to be over the byte budget. */
export const importTooLarge = (bytes: number | string, limits: ImportLimits = IMPORT_LIMITS) =>
  tooLarge(`The import is ${bytes} bytes; an import may be at most ${limits.bytes} bytes.`, limits.bytes)

/** The error body for each way an import can fail (an ApiError as it is). */
function refusal(error: unknown, limits: ImportLimits): unknown {
  if (error instanceof SnapshotError) return validationError(`${error.message} Nothing was imported.`)
  if (error instanceof DamagedLineError) return validationError(`The snapshot is damaged at ${error.message} Nothing was imported.`)
  if (error instanceof ExportSyntaxError) return validationError(`Invalid input JSON: ${error.message} Nothing was imported.`)
  if (error instanceof ValueTooLargeError) return tooLarge(`One row of the import is longer than ${limits.rowChars} characters.`, limits.rowChars)
  return error
}

/** Feeds text to the reader of its kind, decided from its start. */
interface TextSink {
  write(text: string): void
  end(): void
}

function exportSink(importer: SnapshotImporter, limits: ImportLimits): TextSink {
  const fields: Record<string, unknown> = Object.create(null)
  let tables = false
  const scanner = new ExportScanner(
    {
      field(name, value) {
        if (name === 'tables') throw new SnapshotError('Corrupt export: "tables" must be an object.')
        fields[name] = value
      },
      tablesBegin() {
        if (!('format' in fields)) throw new SnapshotError('Not a Ringside database export: "format" and "version" must come before "tables", as every export writes them.')
        tables = true
        importer.header(fields.format, fields.version)
      },
      table: (name, isArray) => importer.table(name, isArray),
      row: (value) => importer.row(value),
    },
    limits.rowChars,
  )
  return {
    write: (text) => scanner.write(text),
    end() {
      scanner.end()
      if (!tables) {
        importer.header(fields.format, fields.version)
        throw new SnapshotError('Corrupt export: "tables" must be an object.')
      }
    },
  }
}

function lineSink(importer: SnapshotImporter, lines: LineFormat, limits: ImportLimits): TextSink {
  // The reader checks the header line itself (damage at line 1).
  importer.header(SNAPSHOT_FORMAT, SNAPSHOT_VERSION)
  const reader = lines.lineReader({ table: (name) => importer.table(name, true), row: (id, row) => importer.row([id, row]) })
  const check = () => {
    const first = reader.damage[0]
    if (first) throw new DamagedLineError(first.line, first.problem)
  }
  let partial: string[] = []
  let partialChars = 0
  return {
    write(text) {
      let start = 0
      for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', start)) {
        const piece = text.slice(start, newline)
        reader.push({ line: partial.length === 0 ? piece : partial.join('') + piece, complete: true })
        partial = []
        partialChars = 0
        start = newline + 1
        check()
      }
      if (start < text.length) {
        partialChars += text.length - start
        if (partialChars > limits.rowChars) throw new ValueTooLargeError('line too long')
        partial.push(text.slice(start))
      }
    },
    end() {
      if (partial.length > 0) reader.push({ line: partial.join(''), complete: false })
      reader.end()
      check()
    },
  }
}

/**
 * Read an import body into `importer` (then call its `load()` to apply it).
 * Resolves with its size; rejects with an ApiError: 413 over the budget in
 * bytes, rows or one row's length, 408 past the deadline, 400 for a body
 * that is not an export or snapshot of this build.
 */
export async function readImport(
  body: ReadableStream<Uint8Array> | null,
  importer: SnapshotImporter,
  lines: LineFormat,
  limits: ImportLimits = IMPORT_LIMITS,
): Promise<{ bytes: number; rows: number }> {
  if (body === null) throw validationError('The import body is empty: send an export (GET /_ringside/v1/export) or a data folder’s snapshot.ndjson.')
  const reader = body.getReader()
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), limits.deadlineMs)))
  const decoder = new TextDecoder()
  let bytes = 0
  let head = ''
  let sink: TextSink | null = null
  const feed = (text: string, last: boolean) => {
    if (sink === null) {
      head += text
      const newline = head.indexOf('\n')
      if (newline < 0 && head.length < SNIFF_CHARS && !last) return
      const firstLine = newline < 0 ? head : head.slice(0, newline)
      sink = lines.isLineSnapshot(firstLine) ? lineSink(importer, lines, limits) : exportSink(importer, limits)
      text = head
      head = ''
    }
    sink.write(text)
    if (importer.rows > limits.rows) throw tooLarge(`The import holds more than ${limits.rows} rows.`, limits.rows)
  }
  try {
    for (;;) {
      const read = reader.read()
      // A read still pending when the import ends is rejected by releaseLock: that is expected.
      read.catch(() => {})
      const next = await Promise.race([read, late])
      if (next === 'late') throw new ApiError(408, Category.VALIDATION_ERROR, `The import did not arrive and read within its deadline of ${limits.deadlineMs / 1000} s. Nothing was imported.`)
      const { done, value } = next
      if (done) break
      bytes += value.byteLength
      if (bytes > limits.bytes) throw importTooLarge(`over ${limits.bytes}`, limits)
      feed(decoder.decode(value, { stream: true }), false)
    }
    if (bytes === 0) throw validationError('The import body is empty: send an export (GET /_ringside/v1/export) or a data folder’s snapshot.ndjson.')
    feed(decoder.decode(), true)
    ;(sink as TextSink | null)?.end()
    return { bytes, rows: importer.rows }
  } catch (error) {
    throw refusal(error, limits)
  } finally {
    clearTimeout(timer)
    // Released, not cancelled: cancelling a request's body would close its connection before the answer goes out.
    // What is left of a refused body is the server's to drain or drop (Node reads it to the end, within its request timeout).
    reader.releaseLock()
  }
}

/**
 * `readImport` for a request: 415 for a content type an export or snapshot
 * never has (a form), and 413 at once when Content-Length is over the budget.
 */
export function readImportRequest(request: Request, importer: SnapshotImporter, lines: LineFormat, limits: ImportLimits = IMPORT_LIMITS): Promise<{ bytes: number; rows: number }> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (!type.endsWith('+json') && !(IMPORT_CONTENT_TYPES as readonly string[]).includes(type)) return Promise.reject(unsupportedMediaType(type, IMPORT_CONTENT_TYPES))
  const declared = Number(request.headers.get('content-length') ?? 0)
  if (declared > limits.bytes) return Promise.reject(importTooLarge(declared, limits))
  return readImport(request.body, importer, lines, limits)
}

/**
 * The 413 for a request whose Content-Length is over its route's limit
 * (the import's budget on IMPORT_PATH, MAX_BODY_BYTES elsewhere), refused
 * before a byte of the body is read; null when it is within.
 */
export function declaredTooLarge(path: string, contentLength: number): ApiError | null {
  if (path === IMPORT_PATH) return contentLength > IMPORT_LIMITS.bytes ? importTooLarge(contentLength) : null
  return contentLength > MAX_BODY_BYTES ? bodyTooLarge(contentLength, MAX_BODY_BYTES) : null
}
