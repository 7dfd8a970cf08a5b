import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { RateLimitsSwitch } from './rate-limits-switch.tsx'
import { callApi, installTestCrm } from '../lib/test-crm.ts'
import type { CrmService } from '../../emulator/core/service.ts'

let service: CrmService
beforeEach(() => {
  service = installTestCrm()
})

test('shows the API’s rate-limit settings and turns them off and on through the API', async () => {
  const user = userEvent.setup()
  render(<RateLimitsSwitch />)
  const box = await screen.findByRole('checkbox', { name: /Apply the real rate limits/ })
  await vi.waitFor(() => expect(box).toBeChecked())
  expect(screen.getByText(/100 requests per 10 s per app, 5 searches per second per token/)).toBeInTheDocument()
  await user.click(box)
  await vi.waitFor(() => expect(box).not.toBeChecked())
  expect((await callApi<{ enabled: boolean }>(service, 'GET', '/_ringside/v1/rate-limits')).enabled).toBe(false)
  expect(screen.getByText(/Off: app credentials are not limited/)).toBeInTheDocument()
  await user.click(box)
  await vi.waitFor(() => expect(box).toBeChecked())
  expect((await callApi<{ enabled: boolean }>(service, 'GET', '/_ringside/v1/rate-limits')).enabled).toBe(true)
})
