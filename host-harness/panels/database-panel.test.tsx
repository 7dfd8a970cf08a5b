import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { DatabasePanel } from './database-panel.tsx'
import { callApi, installTestCrm } from '../lib/test-crm.ts'
import type { CrmService } from '../../emulator/core/service.ts'
import { portableLines } from '../../emulator/core/data/line-format.ts'

let service: CrmService

beforeEach(() => {
  service = installTestCrm()
})

const jsonFile = (text: string, name = 'snapshot.json') => new File([text], name, { type: 'application/json' })

async function contactCount(): Promise<number> {
  const list = await callApi<{ results: unknown[] }>(service, 'GET', '/crm/v3/objects/contacts?limit=100', { token: 'pat-local' })
  return list.results.length
}

async function addContact(firstname: string): Promise<void> {
  await callApi(service, 'POST', '/crm/v3/objects/contacts', { token: 'pat-local', body: { properties: { firstname } } })
}

test('a corrupt snapshot is refused with the API error and changes nothing', async () => {
  const user = userEvent.setup()
  await addContact('Kept')
  render(<DatabasePanel save={() => {}} />)
  await user.upload(screen.getByLabelText('Import a snapshot file'), jsonFile('{"format":"something-else","tables":42}', 'foreign.json'))
  const alert = await screen.findByRole('alert')
  expect(alert).toHaveTextContent('VALIDATION_ERROR')
  expect(alert).toHaveTextContent(/correlationId/)
  expect(await contactCount()).toBe(10)
})

test('a file that is not JSON is refused by the API with its error body', async () => {
  const user = userEvent.setup()
  render(<DatabasePanel save={() => {}} />)
  await user.upload(screen.getByLabelText('Import a snapshot file'), jsonFile('this is {not json', 'notes.json'))
  const alert = await screen.findByRole('alert')
  expect(alert).toHaveTextContent('Invalid input JSON: Unexpected "t" at the start: an export is a JSON object. Nothing was imported.')
  expect(alert).toHaveTextContent(/correlationId/)
  expect(await contactCount()).toBe(9)
})

test('export, change, import the export: the data is back as exported', async () => {
  const user = userEvent.setup()
  const saved: Array<{ name: string; text: string }> = []
  render(<DatabasePanel save={(name, text) => saved.push({ name, text })} />)
  await user.click(screen.getByRole('button', { name: 'Export a snapshot' }))
  expect(await screen.findByRole('status')).toHaveTextContent(/Exported the database as ringside-snapshot-.*\.json/)
  expect(saved).toHaveLength(1)
  expect(saved[0]!.name).toMatch(/^ringside-snapshot-[\dT-]+Z\.json$/)

  await addContact('Temporary')
  expect(await contactCount()).toBe(10)

  await user.upload(screen.getByLabelText('Import a snapshot file'), jsonFile(saved[0]!.text))
  expect(await screen.findByText(/^Imported snapshot\.json \(\d+ KB\)\.$/)).toBeInTheDocument()
  expect(await contactCount()).toBe(9)
})

test('reset asks for confirmation, then restores the seed', async () => {
  const user = userEvent.setup()
  await addContact('Temporary')
  render(<DatabasePanel save={() => {}} />)
  await user.click(screen.getByRole('button', { name: 'Reset the database…' }))
  expect(await contactCount()).toBe(10)
  await user.click(screen.getByRole('button', { name: 'Yes, reset the database' }))
  expect(await screen.findByRole('status')).toHaveTextContent('The database was reset to the seed data.')
  expect(await contactCount()).toBe(9)
})

/** The current data as a server's data folder holds it (snapshot.ndjson): a header, per table a table line and its rows, an end line. */
async function serverSnapshotText(): Promise<string> {
  const { tables } = await callApi<{ tables: Record<string, unknown[]> }>(service, 'GET', '/_ringside/v1/export', { token: 'pat-local' })
  const lines: unknown[] = [{ format: 'ringside-crm-db', version: 1, layout: 'ndjson', exportedAt: new Date().toISOString(), journalGeneration: 'g' }]
  let rows = 0
  for (const [table, entries] of Object.entries(tables)) {
    lines.push({ table, rows: entries.length }, ...entries)
    rows += entries.length
  }
  lines.push({ end: true, tables: Object.keys(tables).length, rows })
  return lines.map((line) => portableLines.checksummed(JSON.stringify(line))).join('')
}

test("a server's snapshot.ndjson imports; one with a damaged line is refused with the line, and changes nothing", async () => {
  const user = userEvent.setup()
  const text = await serverSnapshotText()
  await addContact('Temporary')
  render(<DatabasePanel save={() => {}} />)

  const lines = text.split('\n')
  const damaged = lines.findIndex((line) => line.includes('"Maria"'))
  const bad = lines.map((line, i) => (i === damaged ? line.replace('"Maria"', '"Mario"') : line)).join('\n')
  await user.upload(screen.getByLabelText('Import a snapshot file'), jsonFile(bad, 'snapshot.ndjson'))
  expect(await screen.findByRole('alert')).toHaveTextContent(`The snapshot is damaged at line ${damaged + 1}: checksum mismatch (the line was changed or damaged). Nothing was imported.`)
  expect(await contactCount()).toBe(10)

  await user.upload(screen.getByLabelText('Import a snapshot file'), jsonFile(text, 'snapshot.ndjson'))
  expect(await screen.findByText(/^Imported snapshot\.ndjson \(\d+ KB\)\.$/)).toBeInTheDocument()
  expect(await contactCount()).toBe(9)
})
