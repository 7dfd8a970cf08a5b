import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { AppShell } from './app-shell.tsx'
import { installTestCrm } from '../lib/testing/test-crm.ts'

// The calling integration's views, as stand-ins: an inspector with a filter box (what was typed
// in it shows whether it stayed mounted), and a faults and a composer panel.
vi.mock('./calling-seam.tsx', () => ({
  CallingDock: () => null,
  CallingStatusBadge: () => null,
  NavigationSwitch: () => null,
  TaskQueueBar: () => null,
  useDockReserve: () => 0,
  InspectorPanel: () => <input aria-label="Filter by type" />,
  FaultsPanel: () => <p>Faults panel</p>,
  ComposerPanel: () => <p>Composer panel</p>,
}))

let requested: string[]
beforeEach(() => {
  installTestCrm()
  const crm = globalThis.fetch
  requested = []
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    requested.push(new URL(input instanceof Request ? input.url : String(input), 'http://localhost').pathname)
    return crm(input, init)
  })
})

test('the tools are drawn when first shown, then kept while hidden; a page that never opens them fetches nothing for them', async () => {
  const user = userEvent.setup()
  render(
    <AppShell route={{ page: 'list', objectType: 'contacts' }}>
      <p>The page</p>
    </AppShell>,
  )
  await screen.findByText('The page')
  await new Promise((resolve) => setTimeout(resolve, 20))
  expect(screen.queryByLabelText('Filter by type', { selector: 'input' })).toBeNull()
  expect(screen.queryByText('Faults panel')).toBeNull()
  expect(screen.queryByText('Composer panel')).toBeNull()
  expect(requested).not.toContain('/_ringside/v1/rate-limits')

  await user.click(screen.getByRole('button', { name: 'Show integration tools' }))
  await user.type(screen.getByLabelText('Filter by type'), 'DIAL')
  expect(screen.queryByText('Faults panel')).toBeNull()

  await user.click(screen.getByRole('tab', { name: 'Faults' }))
  expect(screen.getByText('Faults panel')).toBeVisible()
  await screen.findByRole('checkbox', { name: /Apply the real rate limits/ })
  expect(requested.filter((path) => path === '/_ringside/v1/rate-limits')).toHaveLength(1)

  await user.click(screen.getByRole('tab', { name: 'Message inspector' }))
  expect(screen.getByLabelText('Filter by type')).toHaveValue('DIAL')
  await user.click(screen.getByRole('button', { name: 'Hide integration tools' }))
  await user.click(screen.getByRole('button', { name: 'Show integration tools' }))
  expect(screen.getByLabelText('Filter by type')).toHaveValue('DIAL')
  await user.click(screen.getByRole('tab', { name: 'Faults' }))
  expect(requested.filter((path) => path === '/_ringside/v1/rate-limits')).toHaveLength(1)
  expect(screen.queryByText('Composer panel')).toBeNull()
})
