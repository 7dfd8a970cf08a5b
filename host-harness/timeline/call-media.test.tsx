import { render, screen, within } from '@testing-library/react'
import { vi } from 'vitest'
import { createCrmService, type CrmService } from '../../emulator/core/service.ts'
import { fakeVendor, VENDOR_RECORDING_ENDPOINT } from '../../emulator/core/calling/testing.ts'
import { callApi } from '../lib/test-crm.ts'
import { CallEntry } from './call-entry.tsx'
import type { CrmObject } from '../lib/crm-api.ts'

let service: CrmService
beforeEach(() => {
  service = createCrmService({ outboundFetch: fakeVendor().fetch, rateLimits: false })
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => service.handle(new Request(input, init)))
})

const PAT = 'pat-local'
const DEV = '?hapikey=dev-key-local'

async function callWithMedia(): Promise<CrmObject> {
  await callApi(service, 'POST', `/crm/v3/extensions/calling/1001/settings/recording${DEV}`, { body: { urlToRetrieveAuthedRecording: VENDOR_RECORDING_ENDPOINT } })
  const call = await callApi<CrmObject>(service, 'POST', '/crm/v3/objects/calls', {
    token: PAT,
    body: { properties: { hs_call_title: 'Recorded', hs_call_direction: 'INBOUND', hs_call_from_number: '+1 617 555 0101', hs_call_external_id: 'ext-9', hs_call_app_id: '1001' } },
  })
  await callApi(service, 'POST', '/crm/v3/extensions/calling/recordings/ready', { token: PAT, body: { engagementId: Number(call.id) } })
  await callApi(service, 'POST', '/crm/v3/extensions/calling/transcripts', {
    token: PAT,
    body: {
      engagementId: Number(call.id),
      transcriptCreateUtterances: [
        { speaker: { id: '1', name: 'Maria' }, text: '<img src=x onerror="window.pwned=1">Hello', startTimeMillis: 0, endTimeMillis: 1500 },
        { speaker: { id: '2', name: 'Agent' }, text: 'How can I help?', startTimeMillis: 65_000, endTimeMillis: 67_000 },
      ],
    },
  })
  return callApi<CrmObject>(service, 'GET', `/crm/v3/objects/calls/${call.id}?properties=hs_call_title,hs_call_direction,hs_call_from_number`, { token: PAT })
}

test('a call shows its recording through Ringside, its transcript as text, and the caller-ID matches', async () => {
  const call = await callWithMedia()
  const { container } = render(<CallEntry call={call} />)
  const player = await screen.findByLabelText('Call recording')
  expect(player.getAttribute('src')).toBe(`/_ringside/v1/calls/${call.id}/recording`)
  const transcript = await screen.findByRole('region', { name: 'Transcript' })
  expect(within(transcript).getByText('<img src=x onerror="window.pwned=1">Hello')).toBeInTheDocument()
  expect(container.querySelector('img')).toBeNull()
  expect(within(transcript).getByRole('button', { name: '1:05' })).toBeEnabled()
  expect(await screen.findByText(/Maria Garcia \(contact\)/)).toBeInTheDocument()
})

test('a recording that could not be fetched says why, and the transcript cannot seek', async () => {
  service = createCrmService({ rateLimits: false })
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => service.handle(new Request(input, init)))
  const call = await callWithMedia()
  render(<CallEntry call={call} />)
  expect(await screen.findByText(/Recording could not be fetched: .*makes no outbound requests/)).toBeInTheDocument()
  expect(screen.queryByLabelText('Call recording')).toBeNull()
  expect(await screen.findByRole('button', { name: '0:00' })).toBeDisabled()
})
