/**
 * The line format has one reader (emulator/core/data/line-format.ts), given Node's
 * native CRC-32 on the server and `crc-32` in a browser: both checksums agree
 * on any text, and a snapshot the server writes reads the same either way.
 */
import fc from 'fast-check'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
import { afterAll, expect, test } from 'vitest'
import { portableLines } from '../../core/data/line-format.ts'
import { createCrmService } from '../../core/service.ts'
import { linesOfFile, parseLineSnapshot, writeLineSnapshot } from '../storage/line-files.ts'
import { removeScratchDirs, scratchDir } from './support.ts'

afterAll(removeScratchDirs)

test('the portable CRC-32 is the native one on any well-formed text (JSON never holds a lone surrogate)', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme', maxLength: 100 }), (text) => {
      expect(portableLines.checksummed(text)).toBe(`${crc32(text).toString(16).padStart(8, '0')} ${text}\n`)
    }),
    { numRuns: 200 },
  )
})

test("a server's snapshot.ndjson reads the same through the browser's reader; a changed byte is named by line", async () => {
  const service = createCrmService()
  const path = join(scratchDir('line-format'), 'snapshot.ndjson')
  await writeLineSnapshot(path, service.db.rowsNow(), 'generation-1')
  const text = readFileSync(path, 'utf8')
  // Read from the file's bytes (the checksum over them, as a restart reads), both CRC-32s agree too.
  expect(portableLines.parseLineSnapshot(linesOfFile(path))).toEqual(parseLineSnapshot(text))
  expect(portableLines.parseLineSnapshot(text).tables.map((table) => table.name)).toContain('crm_contacts')

  const lines = text.split('\n')
  const row = lines.findIndex((line) => line.includes('{"table":"crm_contacts"')) + 1
  lines[row] = lines[row]!.replace(/"email":"([^"]*)"/, '"email":"x$1"')
  writeFileSync(path, lines.join('\n'))
  expect(portableLines.parseLineSnapshot(readFileSync(path, 'utf8')).damage[0]).toEqual({ line: row + 1, problem: 'checksum mismatch (the line was changed or damaged)' })
})
