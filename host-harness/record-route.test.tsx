import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { RecordRoute as RecordPage } from './app.tsx'
import { callApi, contactIdByName, installTestCrm, oauthAccessToken } from './lib/testing/test-crm.ts'
import type { CrmService } from '../emulator/core/index.ts'

const dial = vi.hoisted(() => ({
  canDial: { ok: false, reason: 'The widget is not logged in.' } as { ok: boolean; reason?: string },
  startCall: vi.fn(),
}))

vi.mock('./layout/calling-seam.tsx', () => ({
  useCanDial: () => dial.canDial,
  startCall: dial.startCall,
  // No call log refused in these tests (the notice has its own: refused-logs.test.ts, e2e/refused-call-log.spec.ts).
  useRefusedLog: () => undefined,
}))

let service: CrmService
let mariaId: string

beforeEach(async () => {
  service = installTestCrm()
  mariaId = await contactIdByName(service, 'Maria')
  dial.canDial = { ok: false, reason: 'The widget is not logged in.' }
  dial.startCall.mockReset()
})

async function addCustomEvent(objectId: string) {
  const template = await callApi<{ id: string }>(service, 'POST', '/crm/v3/timeline/1001/event-templates?hapikey=dev-key-local', {
    body: {
      name: 'Webinar attendance',
      objectType: 'contacts',
      headerTemplate: 'Attended **{{webinar}}**',
      detailTemplate: 'Stayed for {{minutes}} minutes. Notes: {{extraData.notes}}',
      tokens: [
        { name: 'webinar', label: 'Webinar', type: 'string' },
        { name: 'minutes', label: 'Minutes', type: 'number' },
      ],
    },
  })
  const token = await oauthAccessToken(service)
  await callApi(service, 'POST', '/crm/v3/timeline/events', {
    token,
    body: {
      eventTemplateId: template.id,
      objectId,
      tokens: { webinar: 'Calling 101', minutes: 42 },
      extraData: { notes: 'asked about pricing' },
      timelineIFrame: { linkLabel: 'Open recording', headerLabel: 'Webinar recording', url: 'https://example.com/rec', width: 600, height: 400 },
    },
  })
}

test('shows the contact, its properties and its associated company', async () => {
  render(<RecordPage objectType="contacts" id={mariaId} />)
  expect(await screen.findByRole('heading', { level: 1, name: 'Maria Garcia' })).toBeInTheDocument()
  const properties = screen.getByRole('region', { name: 'Properties' })
  expect(within(properties).getByText('maria.garcia@northwind.example')).toBeInTheDocument()
  const companies = await screen.findByRole('region', { name: /Companies \(1\)/ })
  expect(within(companies).getByRole('link', { name: 'Northwind Traders' })).toHaveAttribute('href', expect.stringMatching(/^#\/companies\/\d+$/))
})

test('lists every phone number with a Call button that is disabled with the reason when the widget cannot dial', async () => {
  render(<RecordPage objectType="contacts" id={mariaId} />)
  const phones = await screen.findByRole('region', { name: 'Phone numbers' })
  const office = within(phones).getByRole('button', { name: 'Call +1 617 555 0101' })
  const mobile = within(phones).getByRole('button', { name: 'Call +1 617 555 0191' })
  expect(office).toBeDisabled()
  expect(mobile).toBeDisabled()
  expect(office).toHaveAccessibleDescription('The widget is not logged in.')
  expect(office).toHaveAttribute('title', 'The widget is not logged in.')
})

test('an enabled Call button starts a call with the record, number and phone property', async () => {
  dial.canDial = { ok: true }
  render(<RecordPage objectType="contacts" id={mariaId} />)
  const button = await screen.findByRole('button', { name: 'Call +1 617 555 0191' })
  expect(button).toBeEnabled()
  await userEvent.click(button)
  expect(dial.startCall).toHaveBeenCalledWith(
    expect.objectContaining({ objectType: 'contacts', objectId: mariaId, phoneNumber: '+1 617 555 0191', phoneProperty: 'mobilephone' }),
  )
})

test('the timeline shows the call engagement with status, direction, formatted duration and notes', async () => {
  render(<RecordPage objectType="contacts" id={mariaId} />)
  const call = await screen.findByRole('article', { name: 'Inbound call: Call with Maria Garcia' })
  expect(within(call).getByText('Completed')).toBeInTheDocument()
  expect(within(call).getByText('Inbound')).toBeInTheDocument()
  expect(within(call).getByText('7:12')).toBeInTheDocument()
  expect(within(call).getByText(/cannot log in since the password reset/)).toBeInTheDocument()
})

test('the timeline renders a custom event from its template, with the detail on expand and the app name', async () => {
  await addCustomEvent(mariaId)
  render(<RecordPage objectType="contacts" id={mariaId} />)
  const event = await screen.findByRole('article', { name: 'Attended Calling 101' })
  expect(within(event).getByText('Calling 101').tagName).toBe('STRONG')
  expect(within(event).getByText('Ringside Local App')).toBeInTheDocument()
  expect(within(event).queryByText(/Stayed for 42 minutes/)).not.toBeInTheDocument()
  await userEvent.click(within(event).getByRole('button', { name: 'Show details' }))
  expect(within(event).getByText(/Stayed for 42 minutes\. Notes: asked about pricing/)).toBeInTheDocument()
  await userEvent.click(within(event).getByRole('button', { name: 'Open recording' }))
  const dialog = screen.getByRole('dialog', { name: 'Webinar recording' })
  const frame = within(dialog).getByTitle('Webinar recording')
  expect(frame).toHaveAttribute('src', 'https://example.com/rec')
  expect(frame.getAttribute('sandbox')).not.toContain('allow-same-origin')
})

test('events are newest first and can be filtered to calls only', async () => {
  await addCustomEvent(mariaId)
  render(<RecordPage objectType="contacts" id={mariaId} />)
  await screen.findByRole('article', { name: 'Attended Calling 101' })
  await screen.findByRole('article', { name: 'Inbound call: Call with Maria Garcia' })
  const timeline = screen.getByRole('region', { name: 'Activity' })
  const names = within(timeline)
    .getAllByRole('article')
    .map((a) => a.getAttribute('aria-labelledby') && document.getElementById(a.getAttribute('aria-labelledby')!)?.textContent)
  expect(names).toEqual(['Attended Calling 101', 'Note', 'Inbound call: Call with Maria Garcia'])
  await userEvent.selectOptions(within(timeline).getByRole('combobox', { name: 'Filter activity' }), 'Calls')
  expect(within(timeline).queryByRole('article', { name: 'Attended Calling 101' })).not.toBeInTheDocument()
  expect(within(timeline).getByRole('article', { name: 'Inbound call: Call with Maria Garcia' })).toBeInTheDocument()
})

test('the timeline shows the record\'s notes, their HTML sanitized, and filters to notes only', async () => {
  await callApi(service, 'POST', '/crm/v3/objects/notes', {
    token: 'pat-local',
    body: {
      properties: { hs_note_body: '<b>Budget approved</b><img src=x onerror="alert(1)">', hs_timestamp: '2026-01-01T10:00:00Z' },
      associations: [{ to: { id: mariaId }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 202 }] }],
    },
  })
  render(<RecordPage objectType="contacts" id={mariaId} />)
  const timeline = await screen.findByRole('region', { name: 'Activity' })
  const approved = await within(timeline).findByText('Budget approved')
  expect(approved.tagName).toBe('B')
  expect(timeline.querySelector('[onerror]')).toBeNull()
  expect(within(timeline).getByText(/prefers a call in the morning/)).toBeInTheDocument()
  await userEvent.selectOptions(within(timeline).getByRole('combobox', { name: 'Filter activity' }), 'Notes')
  expect(within(timeline).getAllByRole('article', { name: 'Note' })).toHaveLength(2)
  expect(within(timeline).queryByRole('article', { name: 'Inbound call: Call with Maria Garcia' })).not.toBeInTheDocument()
})

test('a ticket shows its pinned call above the timeline', async () => {
  const tickets = await callApi<{ results: Array<{ id: string; properties: { subject: string } }> }>(service, 'GET', '/crm/v3/objects/tickets?properties=subject', {
    token: 'pat-local',
  })
  const ticket = tickets.results.find((t) => t.properties.subject === 'Cannot log in to the customer portal')!
  render(<RecordPage objectType="tickets" id={ticket.id} />)
  const pinned = await screen.findByRole('region', { name: 'Pinned activity' })
  expect(await within(pinned).findByRole('article', { name: 'Inbound call: Call with Maria Garcia' })).toBeInTheDocument()
  expect(within(screen.getByRole('region', { name: 'Properties' })).getByText('New')).toBeInTheDocument()
})

test('a record that does not exist says so', async () => {
  render(<RecordPage objectType="contacts" id="999999" />)
  expect(await screen.findByRole('heading', { name: 'Contact not found' })).toBeInTheDocument()
})
