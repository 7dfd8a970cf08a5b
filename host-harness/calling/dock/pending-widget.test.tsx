import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { callingStore } from '../core/calling-store.ts'
import { callingRuntime } from '../core/runtime.ts'
import { PendingWidgetNotice } from './pending-widget.tsx'

afterEach(() => {
  vi.restoreAllMocks()
  act(() => callingStore.getState().patch({ pendingWidget: null, currentSrc: null }))
})

test('no notice without a waiting ?widget= URL', () => {
  const { container } = render(<PendingWidgetNotice />)
  expect(container).toBeEmptyDOMElement()
})

test('the notice names the origin and the URL, says what keeps running, and each button makes its choice', async () => {
  const user = userEvent.setup()
  const load = vi.spyOn(callingRuntime, 'loadPendingWidget').mockImplementation(() => {})
  const keep = vi.spyOn(callingRuntime, 'keepRegisteredWidget').mockImplementation(() => {})
  act(() => callingStore.getState().patch({ pendingWidget: { url: 'https://attacker.example/w?x=1', origin: 'https://attacker.example' }, currentSrc: 'http://127.0.0.1:4174/widget/' }))
  render(<PendingWidgetNotice />)
  const notice = screen.getByRole('alertdialog', { name: 'Load a widget from https://attacker.example?' })
  expect(notice).toHaveTextContent('https://attacker.example/w?x=1')
  expect(notice).toHaveTextContent('not on this machine')
  expect(notice).toHaveTextContent('The registered widget keeps running until you choose.')
  await user.click(screen.getByRole('button', { name: 'Load this widget' }))
  expect(load).toHaveBeenCalledTimes(1)
  await user.click(screen.getByRole('button', { name: 'Keep the registered widget' }))
  expect(keep).toHaveBeenCalledTimes(1)
  act(() => callingStore.getState().patch({ currentSrc: null }))
  expect(notice).toHaveTextContent('No widget runs until you choose.')
})
