/**
 * An import from a file on this machine (`npm start --import`, `ringside
 * import --data`): the file is streamed through the same reader and budget
 * as `POST /_ringside/v1/import` (emulator/core/data/import-stream.ts; its deadline
 * is longer: no HTTP request to end), never read whole, and applied only when all of it was read and checked.
 */
import { createReadStream } from 'node:fs'
import { Readable } from 'node:stream'
import type { Database } from '../../core/data/db.ts'
import { ApiError } from '../../core/http/errors.ts'
import { FILE_IMPORT_LIMITS, readImport } from '../../core/data/import-stream.ts'
import { nodeLines } from './line-files.ts'

/** Why a file cannot be imported: one sentence (nothing was changed). */
export class ImportFileError extends Error {
  override name = 'ImportFileError'
}

/** Replace `db` with the file's export or snapshot (outside a transaction: at startup, or offline). */
export async function importFile(db: Database, path: string): Promise<{ bytes: number; rows: number }> {
  const importer = db.importer()
  const file = createReadStream(path)
  let read: { bytes: number; rows: number }
  try {
    read = await readImport(Readable.toWeb(file) as ReadableStream<Uint8Array>, importer, nodeLines, FILE_IMPORT_LIMITS)
  } catch (error) {
    if (error instanceof ApiError) throw new ImportFileError(error.message)
    throw new ImportFileError(`${error instanceof Error ? error.message : String(error)} Nothing was imported.`)
  } finally {
    file.destroy()
  }
  importer.load()
  return read
}
