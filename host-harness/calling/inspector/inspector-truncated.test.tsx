/**
 * A huge message in the inspector: the List, the Ladder and an imported file say it was truncated, with
 * its size and what was kept; the count line says how many older messages the log dropped.
 */
import { act, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { callingStore } from '../core/calling-store.ts'
import { trafficFileOf } from '../core/traffic-export.ts'
import type { TrafficEntry } from '../core/traffic-recorder.ts'
import { InspectorPanel } from './inspector-panel.tsx'

const MB = 1024 * 1024
const NOTE = 'truncated: 4.0 MB message, first 64 KB kept'

function add(seq: number, message: Record<string, unknown>): void {
  const entry: TrafficEntry = { seq, time: Date.UTC(2025, 0, 1, 12, 0, 0, seq), direction: 'in', type: String(message.type), message, valid: true }
  act(() => {
    callingStore.getState().addTraffic(entry)
    callingStore.getState().flushTraffic()
  })
}

const huge = () => ({ type: 'CALL_DATA', messageId: 'w_big', data: { blob: 'z'.repeat(4 * MB - 60) } })

beforeEach(() => {
  callingStore.setState(callingStore.getInitialState(), true)
})

test('the List and the Ladder say a huge message was truncated, with its size and what was kept', async () => {
  const user = userEvent.setup()
  render(<InspectorPanel />)
  add(1, huge())
  const row = within(screen.getByRole('list', { name: 'Messages' })).getByRole('listitem', { name: /^CALL_DATA, / })
  expect(row).toHaveTextContent(NOTE)
  await user.click(within(row).getByRole('button', { expanded: false }))
  expect(row).toHaveTextContent(`${NOTE}: the host judged and acted on the whole message; the log keeps its first part.`)

  await user.click(screen.getByRole('button', { name: 'Ladder' }))
  const ladder = screen.getByRole('region', { name: 'Ladder diagram' })
  expect(within(ladder).getByRole('listitem', { name: new RegExp(`^#1 CALL_DATA, .*${NOTE}`) })).toBeInTheDocument()
})

test('an exported file with a truncated message imports, and its ladder says so', async () => {
  const user = userEvent.setup()
  add(1, huge())
  const exported = JSON.stringify(trafficFileOf(callingStore.getState()))
  expect(exported.length).toBeLessThan(100_000)
  callingStore.setState(callingStore.getInitialState(), true)
  render(<InspectorPanel />)
  await user.upload(screen.getByLabelText('Import a traffic file'), new File([exported], 'huge.json', { type: 'application/json' }))
  expect(await screen.findByRole('status')).toHaveTextContent('Showing the imported file huge.json: 1 messages')
  const ladder = screen.getByRole('region', { name: 'Ladder diagram' })
  expect(within(ladder).getByRole('listitem', { name: new RegExp(`^#1 CALL_DATA, .*${NOTE}`) })).toBeInTheDocument()
})

test('the count line says how many older messages the log dropped, and why', () => {
  render(<InspectorPanel />)
  act(() => callingStore.setState({ trafficDropped: 12 }))
  add(1, { type: 'CALL_DATA', messageId: 'w_1' })
  expect(screen.getByText(/^1 messages; 12 older messages dropped \(the log keeps the newest 3000 messages, 16\.0 MB in all\)/)).toBeInTheDocument()
})
