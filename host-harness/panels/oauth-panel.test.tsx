import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { OAuthPanel } from './oauth-panel.tsx'
import { callApi, installTestCrm } from '../lib/test-crm.ts'
import { resetHarnessStore } from '../lib/harness-store.ts'
import { DEFAULT_REDIRECT_URLS, REDIRECT_URLS_PATH } from '../../shared/crm/redirect-urls.ts'
import type { CrmService } from '../../emulator/core/service.ts'

let service: CrmService

beforeEach(() => {
  service = installTestCrm()
  resetHarnessStore()
})

const registered = () => callApi<{ redirectUrls: string[] }>(service, 'GET', REDIRECT_URLS_PATH).then((r) => r.redirectUrls)

test('the panel lists the registered redirect URLs and the harness callback, registers one through the API and removes it', async () => {
  const user = userEvent.setup()
  render(<OAuthPanel connect={() => {}} />)
  const list = await screen.findByRole('list', { name: 'Registered redirect URLs' })
  for (const url of DEFAULT_REDIRECT_URLS) expect(await within(list).findByText(url)).toBeInTheDocument()
  expect(within(screen.getByText(/Always accepted here/)).getByText(`${window.location.origin}/?oauth_callback=1`)).toBeInTheDocument()

  await user.type(screen.getByLabelText('Redirect URL'), 'https://app.example.com/oauth/callback')
  await user.click(screen.getByRole('button', { name: 'Register' }))
  expect(await within(list).findByText('https://app.example.com/oauth/callback')).toBeInTheDocument()
  expect(await registered()).toEqual([...DEFAULT_REDIRECT_URLS, 'https://app.example.com/oauth/callback'])

  await user.click(screen.getByRole('button', { name: 'Remove https://app.example.com/oauth/callback' }))
  await vi.waitFor(() => expect(within(list).queryByText('https://app.example.com/oauth/callback')).toBeNull())
  expect(await registered()).toEqual([...DEFAULT_REDIRECT_URLS])
})

test('a URL the CRM would not take (http on a host other than localhost) shows the API error and registers nothing', async () => {
  const user = userEvent.setup()
  render(<OAuthPanel connect={() => {}} />)
  await screen.findByRole('list', { name: 'Registered redirect URLs' })
  await user.type(screen.getByLabelText('Redirect URL'), 'http://127.0.0.1:3000/cb')
  await user.click(screen.getByRole('button', { name: 'Register' }))
  expect(await screen.findByText(/http only for localhost/)).toBeInTheDocument()
  expect(await registered()).toEqual([...DEFAULT_REDIRECT_URLS])
})
