import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { TicketsPanel } from './tickets-panel.tsx'
import { callApi, installTestCrm } from '../lib/test-crm.ts'
import type { CrmService } from '../../emulator/core/service.ts'

let service: CrmService

beforeEach(() => {
  service = installTestCrm()
})

type Ticket = { id: string; properties: Record<string, string | null> }

async function ticketBySubject(subject: string, archived = false): Promise<Ticket | undefined> {
  const list = await callApi<{ results: Ticket[] }>(
    service,
    'GET',
    `/crm/v3/objects/tickets?limit=100&properties=subject,hs_pipeline_stage,hs_ticket_priority,hs_pinned_engagement_id&archived=${archived}`,
    { token: 'pat-local' },
  )
  return list.results.find((t) => t.properties.subject === subject)
}

test('creates a ticket with subject, stage and priority, and lists it', async () => {
  const user = userEvent.setup()
  render(<TicketsPanel />)
  const form = await screen.findByRole('form', { name: 'New ticket' })
  await user.type(within(form).getByRole('textbox', { name: 'Subject' }), 'Headset crackles')
  await user.selectOptions(within(form).getByRole('combobox', { name: 'Stage' }), 'Waiting on us')
  await user.selectOptions(within(form).getByRole('combobox', { name: 'Priority' }), 'Urgent')
  await user.click(within(form).getByRole('button', { name: 'Create ticket' }))
  expect(await screen.findByRole('status')).toHaveTextContent('Ticket created.')
  expect(await screen.findByRole('link', { name: 'Headset crackles' })).toBeInTheDocument()
  const stored = await ticketBySubject('Headset crackles')
  expect(stored?.properties).toMatchObject({ hs_pipeline_stage: '3', hs_ticket_priority: 'URGENT' })
})

test('a ticket without a subject is refused with the API error, and nothing is created', async () => {
  const user = userEvent.setup()
  render(<TicketsPanel />)
  const form = await screen.findByRole('form', { name: 'New ticket' })
  await user.click(within(form).getByRole('button', { name: 'Create ticket' }))
  const alert = await screen.findByRole('alert')
  expect(alert).toHaveTextContent('VALIDATION_ERROR')
  expect(alert).toHaveTextContent(/subject/)
  const list = await callApi<{ results: unknown[] }>(service, 'GET', '/crm/v3/objects/tickets', { token: 'pat-local' })
  expect(list.results).toHaveLength(2)
})

test('changes the stage of a ticket', async () => {
  const user = userEvent.setup()
  render(<TicketsPanel />)
  const stage = await screen.findByRole('combobox', { name: 'Stage of Invoice shows the wrong amount' })
  await user.selectOptions(stage, 'Closed')
  expect(await screen.findByRole('status')).toHaveTextContent('changed to Closed')
  expect((await ticketBySubject('Invoice shows the wrong amount'))?.properties.hs_pipeline_stage).toBe('4')
})

test('pins one of the ticket’s associated calls', async () => {
  const ticket = (await ticketBySubject('Invoice shows the wrong amount'))!
  const call = await callApi<{ id: string }>(service, 'POST', '/crm/v3/objects/calls', {
    token: 'pat-local',
    body: {
      properties: { hs_call_title: 'Billing callback', hs_call_direction: 'OUTBOUND', hs_timestamp: new Date().toISOString() },
      associations: [{ to: { id: ticket.id }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 220 }] }],
    },
  })
  const user = userEvent.setup()
  render(<TicketsPanel />)
  const pin = await screen.findByRole('combobox', { name: 'Pinned activity of Invoice shows the wrong amount' })
  await user.selectOptions(pin, within(pin).getByRole('option', { name: /Outbound call: Billing callback/ }))
  expect(await screen.findByRole('status')).toHaveTextContent('Pinned activity of “Invoice shows the wrong amount” updated.')
  expect((await ticketBySubject('Invoice shows the wrong amount'))?.properties.hs_pinned_engagement_id).toBe(call.id)
})

test('deletes a ticket to the recycle bin and restores it', async () => {
  const user = userEvent.setup()
  render(<TicketsPanel />)
  await user.click(await screen.findByRole('button', { name: 'Delete Invoice shows the wrong amount' }))
  const bin = await screen.findByRole('list', { name: 'Deleted tickets' })
  const restore = await within(bin).findByRole('button', { name: 'Restore Invoice shows the wrong amount' })
  expect(screen.queryByRole('link', { name: 'Invoice shows the wrong amount' })).not.toBeInTheDocument()
  expect(await ticketBySubject('Invoice shows the wrong amount', true)).toBeDefined()

  await user.click(restore)
  expect(await screen.findByRole('link', { name: 'Invoice shows the wrong amount' })).toBeInTheDocument()
  expect(await ticketBySubject('Invoice shows the wrong amount')).toBeDefined()
  expect(await ticketBySubject('Invoice shows the wrong amount', true)).toBeUndefined()
})
