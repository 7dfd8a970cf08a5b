import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { RecordList, PAGE_SIZE } from './record-list.tsx'
import { callApi, installTestCrm } from '../lib/test-crm.ts'
import type { CrmService } from '../../emulator/core/service.ts'

let service: CrmService

beforeEach(() => {
  service = installTestCrm()
})

const rows = () => within(screen.getByRole('table', { name: 'Contacts' })).queryAllByRole('link').map((a) => a.textContent)

test('pages through contacts with the API cursor, forward and back', async () => {
  const inputs = Array.from({ length: PAGE_SIZE + 5 }, (_, i) => ({ properties: { firstname: 'Extra', lastname: String(i).padStart(2, '0') } }))
  await callApi(service, 'POST', '/crm/v3/objects/contacts/batch/create', { token: 'pat-local', body: { inputs } })
  const user = userEvent.setup()
  render(<RecordList objectType="contacts" />)
  await screen.findByRole('link', { name: 'Maria Garcia' })
  expect(rows()).toHaveLength(PAGE_SIZE)
  await user.click(screen.getByRole('button', { name: 'Next page' }))
  await screen.findByRole('link', { name: 'Extra 24' })
  expect(rows()).toHaveLength(9 + PAGE_SIZE + 5 - PAGE_SIZE)
  expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled()
  await user.click(screen.getByRole('button', { name: 'Previous page' }))
  expect(await screen.findByRole('link', { name: 'Maria Garcia' })).toBeInTheDocument()
})

test('the search box finds records through the search endpoint, and clearing it lists all again', async () => {
  const user = userEvent.setup()
  render(<RecordList objectType="contacts" />)
  await screen.findByRole('link', { name: 'Maria Garcia' })
  await user.type(screen.getByRole('searchbox', { name: 'Search contacts' }), 'northwind')
  await user.click(screen.getByRole('button', { name: 'Search' }))
  expect(await screen.findByRole('status')).toHaveTextContent('2 matches for “northwind”')
  expect(rows()).toEqual(['Maria Garcia', 'James Chen'])
  await user.click(screen.getByRole('button', { name: 'Clear search' }))
  await screen.findByRole('link', { name: 'Diego Fernández' })
  expect(rows()).toHaveLength(9)
})

test('ticket lists show stage and priority labels, not ids', async () => {
  render(<RecordList objectType="tickets" />)
  const row = (await screen.findByRole('link', { name: 'Cannot log in to the customer portal' })).closest('tr')!
  expect(await within(row).findByText('New')).toBeInTheDocument()
  expect(within(row).getByText('High')).toBeInTheDocument()
  expect(screen.getByRole('columnheader', { name: 'Subject' })).toBeInTheDocument()
})
