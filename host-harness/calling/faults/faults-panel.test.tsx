import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { callingStore } from '../core/calling-store.ts'
import { FaultsPanel } from './faults-panel.tsx'

beforeEach(() => {
  callingStore.setState(callingStore.getInitialState(), true)
})

test('engagement faults are chosen per operation: off, the next one, or every one', async () => {
  const user = userEvent.setup()
  render(<FaultsPanel />)
  const create = screen.getByRole('group', { name: 'Engagement creation' })
  const update = screen.getByRole('group', { name: 'Engagement update (CALL_COMPLETED)' })
  expect(within(create).getByRole('radio', { name: 'Off' })).toBeChecked()
  await user.click(within(create).getByRole('radio', { name: 'Fail the next one' }))
  await user.click(within(update).getByRole('radio', { name: 'Fail every one' }))
  expect(callingStore.getState().engagementFaults).toEqual({ create: 'next', update: 'always' })
})

test('a used-up one-shot fault shows as Off again', async () => {
  render(<FaultsPanel />)
  const create = screen.getByRole('group', { name: 'Engagement creation' })
  await userEvent.setup().click(within(create).getByRole('radio', { name: 'Fail the next one' }))
  expect(callingStore.getState().takeEngagementFault('create')).toBe(true)
  expect(await within(create).findByRole('radio', { name: 'Off' })).toBeChecked()
  expect(callingStore.getState().takeEngagementFault('create')).toBe(false)
})

test('message types can be dropped and duplicated, and removed again', async () => {
  const user = userEvent.setup()
  render(<FaultsPanel />)
  const drop = screen.getByRole('group', { name: 'Drop host messages' })
  await user.selectOptions(within(drop).getByLabelText('Message type'), 'UPDATE_ENGAGEMENT_SUCCEEDED')
  await user.click(within(drop).getByRole('button', { name: 'Drop this type' }))
  const duplicate = screen.getByRole('group', { name: 'Duplicate host messages' })
  await user.click(within(duplicate).getByRole('button', { name: 'Duplicate this type' }))
  expect(callingStore.getState().hostFaults).toMatchObject({ drop: ['UPDATE_ENGAGEMENT_SUCCEEDED'], duplicate: ['DIAL_NUMBER'] })
  expect(within(drop).getByRole('list', { name: 'Dropped types' })).toHaveTextContent('UPDATE_ENGAGEMENT_SUCCEEDED')
  await user.click(within(drop).getByRole('button', { name: 'Stop dropping UPDATE_ENGAGEMENT_SUCCEEDED' }))
  expect(callingStore.getState().hostFaults.drop).toEqual([])
  expect(within(drop).getByText('None.')).toBeInTheDocument()
})

test('the host-message delay is applied, and an out-of-range delay is refused with a message', async () => {
  const user = userEvent.setup()
  render(<FaultsPanel />)
  const delay = screen.getByLabelText('Delay host messages (ms)')
  await user.clear(delay)
  await user.type(delay, '250')
  await user.click(screen.getByRole('button', { name: 'Apply delay' }))
  expect(callingStore.getState().hostFaults.delayMs).toBe(250)
  expect(screen.getByText('Current: 250 ms')).toBeInTheDocument()
  await user.clear(delay)
  await user.type(delay, '-5')
  await user.click(screen.getByRole('button', { name: 'Apply delay' }))
  expect(screen.getByText('Enter a delay between 0 and 60000 ms.')).toBeInTheDocument()
  expect(callingStore.getState().hostFaults.delayMs).toBe(250)
})

test('SYNC can be withheld and the sync timeout is set (clamped to its bounds)', async () => {
  const user = userEvent.setup()
  render(<FaultsPanel />)
  await user.click(screen.getByRole('checkbox', { name: /Withhold SYNC/ }))
  expect(callingStore.getState().hostFaults.withholdSync).toBe(true)
  const timeout = screen.getByLabelText('Sync timeout (ms)')
  await user.clear(timeout)
  await user.type(timeout, '1500')
  await user.click(screen.getByRole('button', { name: 'Apply and reload widget' }))
  expect(callingStore.getState().syncTimeoutMs).toBe(1500)
  await user.clear(timeout)
  await user.type(timeout, '5')
  await user.click(screen.getByRole('button', { name: 'Apply and reload widget' }))
  expect(callingStore.getState().syncTimeoutMs).toBe(200)
  expect(timeout).toHaveValue(200)
})
