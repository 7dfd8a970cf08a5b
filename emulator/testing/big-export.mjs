// A large export, made fast: the server's own export (its seed) with `count`
// contacts of the 100k workload (contactProperties, below; tools/bench/seed-100k.mjs loads the same) added to
// crm_contacts, and the contact id sequence moved past them, written to a
// file a row at a time. The import checks every row of it as it would any
// export; the round trip (import it, export again, import that) then
// carries an export the server itself wrote. Used by the import's tests
// and its bench section.
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'

/** The properties of contact `i` of the workload. */
export function contactProperties(i) {
  return {
    email: `user${i}@example.com`,
    firstname: `First${i}`,
    lastname: `Last${i}`,
    phone: `+1617555${String(i % 10_000).padStart(4, '0')}`,
    company: `Company ${i % 1000}`,
  }
}

const WHEN = '2026-01-01T00:00:00.000Z'

/** The row of contact `i` with id `id`, as the contacts table holds it. */
function contactRow(i, id) {
  return { id, properties: { ...contactProperties(i), hs_object_id: id, createdate: WHEN, hs_lastmodifieddate: WHEN }, history: {}, createdAt: WHEN, updatedAt: WHEN, archived: false }
}

/**
 * Writes the export to `file` and resolves to { bytes, contacts } (contacts:
 * every contact row it holds). The template is `seed` (an export), or the
 * export of the server at `baseUrl`. `pad` adds that many spaces before each
 * added row (valid JSON, a body much larger than its rows).
 */
export async function writeContactExport({ baseUrl, seed: given, file, count, pad = 0 }) {
  const seed = given ?? (await (await fetch(`${baseUrl}/_ringside/v1/export`)).json())
  const out = createWriteStream(file)
  let bytes = 0
  const write = async (text) => {
    bytes += Buffer.byteLength(text)
    if (!out.write(text)) await once(out, 'drain')
  }
  const { tables, ...header } = seed
  const existing = tables.crm_contacts ?? []
  const first = Math.max(0, ...existing.map(([id]) => Number(id))) + 1
  await write(`${JSON.stringify(header).slice(0, -1)},"tables":{`)
  const names = Object.keys(tables)
  for (const [t, name] of names.entries()) {
    let rows = tables[name]
    if (name === '_sequences') rows = rows.map(([key, value]) => (key === 'crm_contacts' ? [key, first + count - 1] : [key, value]))
    await write(`${t > 0 ? ',' : ''}${JSON.stringify(name)}:[${rows.map((row) => JSON.stringify(row)).join(',')}`)
    if (name === 'crm_contacts') {
      const spaces = ' '.repeat(pad)
      for (let i = 0; i < count; i++) {
        const id = String(first + i)
        await write(`${rows.length + i > 0 ? ',' : ''}${spaces}${JSON.stringify([id, contactRow(i, id)])}`)
      }
    }
    await write(']')
  }
  await write('}}')
  out.end()
  await once(out, 'close')
  return { bytes, contacts: existing.length + count }
}
