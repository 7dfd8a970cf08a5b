import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { DatabasePanel } from './database-panel.tsx'
import { callApi, installTestCrm } from '../lib/test-crm.ts'
import type { CrmService } from '../../shared/api/service.ts'

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

test('a file that is not JSON is refused before reaching the API', async () => {
  const user = userEvent.setup()
  render(<DatabasePanel save={() => {}} />)
  await user.upload(screen.getByLabelText('Import a snapshot file'), jsonFile('this is {not json', 'notes.json'))
  expect(await screen.findByRole('alert')).toHaveTextContent('notes.json is not a JSON file')
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
  expect(await screen.findByText('Imported snapshot.json.')).toBeInTheDocument()
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
