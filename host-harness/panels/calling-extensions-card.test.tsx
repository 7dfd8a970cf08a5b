import { render, screen, within } from '@testing-library/react'
import { vi } from 'vitest'
import { createCrmService, type CrmService } from '../../emulator/core/service.ts'
import { fakeVendor, VENDOR_NUMBERS_URL } from '../../emulator/core/calling/testing.ts'
import { callApi } from '../lib/test-crm.ts'
import { CallingExtensionsCard } from './calling-extensions-card.tsx'

let service: CrmService
beforeEach(() => {
  service = createCrmService({ outboundFetch: fakeVendor().fetch, rateLimits: false })
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => service.handle(new Request(input, init)))
})

const DEV = '?hapikey=dev-key-local'

test('Developer settings show the channel connection: what the signed webhook request returned', async () => {
  await callApi(service, 'POST', `/crm/v3/extensions/calling/1001/settings/channel-connection${DEV}`, { body: { url: VENDOR_NUMBERS_URL, isReady: true } })
  render(<CallingExtensionsCard />)
  const status = await screen.findByRole('region', { name: 'Channel connection status' })
  expect(await within(status).findByText(/Connected: the webhook answered the signed request/)).toBeInTheDocument()
  expect(within(status).getByText(/\+18001231234 — Support line/)).toBeInTheDocument()
  expect(await screen.findByText(VENDOR_NUMBERS_URL)).toBeInTheDocument()
  expect(screen.getByText('not registered')).toBeInTheDocument()
})
