import { act, render, screen, within } from '@testing-library/react'
import { Profiler } from 'react'
import userEvent from '@testing-library/user-event'
import type { TrafficEntry } from '../core/traffic-recorder.ts'
import { callingStore } from '../core/calling-store.ts'
import { InspectorPanel } from './inspector-panel.tsx'
import { CallingCause } from '../core/ports.ts'
import { parseTrafficFile } from '../../../shared/traffic/traffic-file.ts'
import { TrafficBuilder } from '../../../shared/traffic/testing/fixtures.ts'

let seq = 0
function traffic(direction: 'in' | 'out', message: Record<string, unknown>, extra: Partial<TrafficEntry> = {}) {
  seq += 1
  const entry: TrafficEntry = {
    seq,
    time: Date.UTC(2025, 0, 1, 12, 0, 0, seq),
    direction,
    type: typeof message.type === 'string' ? message.type : null,
    message,
    valid: true,
    ...extra,
  }
  return act(() => {
    callingStore.getState().addTraffic(entry)
    callingStore.getState().flushTraffic()
  })
}

const list = () => screen.getByRole('list', { name: 'Messages' })
const items = () => within(list()).queryAllByRole('listitem').filter((li) => li.parentElement === list())
const item = (type: string) => within(list()).getByRole('listitem', { name: new RegExp(`^${type}, `) })

const outgoing = { type: 'OUTGOING_CALL_STARTED', messageId: 'w_1', data: { externalCallId: 'c1', toNumber: '<img src=x onerror=alert(1)>', createEngagement: true } }
const created = { type: 'CREATE_ENGAGEMENT_SUCCEEDED', messageId: 'host_2', data: { engagementId: 77 } }

async function seedCall() {
  await traffic('out', { type: 'SYNC', messageId: 'host_1', hostUrl: 'http://localhost:3000' })
  await traffic('in', { type: 'SYNC_ACK', messageId: 'host_1' })
  await traffic('in', outgoing)
  await traffic('out', created)
  act(() => {
    callingStore.getState().addLink({ request: outgoing, requestType: 'OUTGOING_CALL_STARTED', requestMessageId: 'w_1', replyMessageId: 'host_2' })
    callingStore.getState().flushTraffic()
  })
}

beforeEach(() => {
  callingStore.setState(callingStore.getInitialState(), true)
})

test('every message is listed in order with direction, type and validity', async () => {
  render(<InspectorPanel />)
  await seedCall()
  await traffic('in', { type: 'CALL_ENDED', messageId: 'w_3', data: { externalCallId: 'c1' } }, { valid: false, reason: 'invalid: data.engagementId: expected number' })
  await traffic('in', { type: 'PUBLISH_TO_CHANNEL', messageId: 'w_4', data: { externalCallId: 'c1', engagementId: 77 } }, { deprecation: 'use FINALIZE_ENGAGEMENT' })
  expect(items().map((li) => li.getAttribute('aria-label'))).toEqual([
    'SYNC, host → widget, #1',
    'SYNC_ACK, widget → host, #2',
    'OUTGOING_CALL_STARTED, widget → host, #3',
    'CREATE_ENGAGEMENT_SUCCEEDED, host → widget, #4',
    'CALL_ENDED, widget → host, #5',
    'PUBLISH_TO_CHANNEL, widget → host, #6',
  ])
  expect(item('CALL_ENDED')).toHaveTextContent('invalid: data.engagementId: expected number')
  expect(item('PUBLISH_TO_CHANNEL')).toHaveTextContent('deprecated: use FINALIZE_ENGAGEMENT')
  expect(item('SYNC_ACK')).toHaveTextContent('valid')
  expect(screen.getByText('6 messages')).toBeInTheDocument()
})

test('a payload expands into a JSON tree whose values are text, never HTML', async () => {
  const user = userEvent.setup()
  const { container } = render(<InspectorPanel />)
  await seedCall()
  const entry = item('OUTGOING_CALL_STARTED')
  const toggle = within(entry).getByRole('button', { expanded: false })
  await user.click(toggle)
  expect(toggle).toHaveAttribute('aria-expanded', 'true')
  const tree = within(entry).getByRole('tree', { name: /Message #3/ })
  await user.click(within(tree).getByRole('treeitem', { name: /^data/ }))
  expect(within(tree).getByText('"<img src=x onerror=alert(1)>"')).toBeInTheDocument()
  expect(container.querySelector('img')).toBeNull()
})

test('a request and its reply link to each other; following a link highlights the other entry', async () => {
  const user = userEvent.setup()
  render(<InspectorPanel />)
  await seedCall()
  await user.click(within(item('OUTGOING_CALL_STARTED')).getByRole('button', { name: 'Reply: CREATE_ENGAGEMENT_SUCCEEDED #4' }))
  expect(item('CREATE_ENGAGEMENT_SUCCEEDED')).toHaveAttribute('aria-current', 'true')
  expect(item('CREATE_ENGAGEMENT_SUCCEEDED')).toHaveFocus()
  await user.click(within(item('CREATE_ENGAGEMENT_SUCCEEDED')).getByRole('button', { name: 'Request: OUTGOING_CALL_STARTED #3' }))
  expect(item('OUTGOING_CALL_STARTED')).toHaveAttribute('aria-current', 'true')
  expect(item('CREATE_ENGAGEMENT_SUCCEEDED')).not.toHaveAttribute('aria-current')
  // SYNC and SYNC_ACK are linked by their shared messageId.
  expect(within(item('SYNC')).getByRole('button', { name: 'Reply: SYNC_ACK #2' })).toBeInTheDocument()
})

test('following a link clears a filter that hides the other entry', async () => {
  const user = userEvent.setup()
  render(<InspectorPanel />)
  await seedCall()
  await user.selectOptions(screen.getByLabelText('Direction'), 'in')
  expect(within(list()).queryByRole('listitem', { name: /^CREATE_ENGAGEMENT_SUCCEEDED/ })).toBeNull()
  await user.click(within(item('OUTGOING_CALL_STARTED')).getByRole('button', { name: /^Reply:/ }))
  expect(item('CREATE_ENGAGEMENT_SUCCEEDED')).toHaveAttribute('aria-current', 'true')
  expect(screen.getByLabelText('Direction')).toHaveValue('all')
})

test('filters by type text, by direction, and to problems only', async () => {
  const user = userEvent.setup()
  render(<InspectorPanel />)
  await seedCall()
  await traffic('in', { type: 'HELLO', messageId: 'w_9' }, { valid: false, reason: 'unknown type' })
  await user.type(screen.getByLabelText('Filter by type'), 'sync')
  expect(items().map((li) => li.getAttribute('aria-label'))).toEqual(['SYNC, host → widget, #1', 'SYNC_ACK, widget → host, #2'])
  await user.selectOptions(screen.getByLabelText('Direction'), 'out')
  expect(items()).toHaveLength(1)
  expect(screen.getByText('1 of 5 messages')).toBeInTheDocument()
  await user.clear(screen.getByLabelText('Filter by type'))
  await user.selectOptions(screen.getByLabelText('Direction'), 'all')
  await user.click(screen.getByLabelText('Only problems'))
  expect(items().map((li) => li.getAttribute('aria-label'))).toEqual(['HELLO, widget → host, #5'])
})

test('conformance findings show inline and in the summary, with open calls', async () => {
  render(<InspectorPanel />)
  await traffic('in', { type: 'CALL_COMPLETED', messageId: 'w_1', data: { externalCallId: 'nope' } })
  await traffic('in', { type: 'INCOMING_CALL', messageId: 'w_2', data: { externalCallId: 'in-1', fromNumber: '+1', toNumber: '+2', createEngagement: true } })
  const summary = screen.getByRole('region', { name: 'Conformance summary' })
  expect(summary).toHaveTextContent('Sent before the handshake: 2')
  expect(summary).toHaveTextContent('Call event without a started call: 1')
  expect(summary).toHaveTextContent('Open calls (not completed yet): in-1')
  const findings = within(item('CALL_COMPLETED')).getByRole('list', { name: /Findings for/ })
  expect(findings).toHaveTextContent('the widget started no call with that externalCallId: the host ignores it')
})

test('Clear empties the list and the findings', async () => {
  const user = userEvent.setup()
  render(<InspectorPanel />)
  await traffic('in', { type: 'LOGGED_IN', messageId: 'w_1' })
  await user.click(screen.getByRole('button', { name: 'Clear' }))
  expect(items()).toHaveLength(0)
  expect(screen.getByText('No conformance findings.')).toBeInTheDocument()
  expect(screen.getByRole('button', { name: 'Export JSON' })).toBeDisabled()
})

test('Export JSON downloads a traffic file: every message with its links, the API requests with their cause, the findings', async () => {
  const user = userEvent.setup()
  const blobs: Blob[] = []
  const create = vi.fn((blob: Blob) => {
    blobs.push(blob)
    return 'blob:export'
  })
  // URL itself stays as it is (the worker's later test files share it): a stand-in that adds the two methods.
  const revoke = vi.fn()
  vi.stubGlobal('URL', new Proxy(URL, { get: (target, key) => (key === 'createObjectURL' ? create : key === 'revokeObjectURL' ? revoke : Reflect.get(target, key)) }))
  const clicks: string[] = []
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicks.push(this.download)
  })
  render(<InspectorPanel />)
  await seedCall()
  apiRequestFor(outgoing)
  await traffic('in', { type: 'LOGGED_IN', messageId: 'w_5' }, { beforeHandshake: true })
  await user.click(screen.getByRole('button', { name: 'Export JSON' }))
  expect(clicks).toEqual([expect.stringMatching(/^ringside-traffic-.*\.json$/)])
  const parsed = parseTrafficFile(await blobs[0]!.text())
  if (!parsed.ok) throw new Error(parsed.error)
  const body = parsed.file
  expect(body).toMatchObject({ format: 'ringside-traffic', version: 1 })
  expect(body.messages.map((e) => e.type)).toEqual(['SYNC', 'SYNC_ACK', 'OUTGOING_CALL_STARTED', 'CREATE_ENGAGEMENT_SUCCEEDED', 'LOGGED_IN'])
  expect(body.messages[2]).toMatchObject({ linkedTo: [4], message: outgoing })
  expect(body.messages[4]?.beforeHandshake).toBe(true)
  expect(body.requests).toEqual([{ id: 1, time: 5, method: 'POST', path: '/crm/v3/objects/calls', status: 201, durationMs: 9, afterSeq: 4, causeSeq: 3 }])
  expect(body.findings?.map((f) => f.rule)).toEqual(['before-handshake'])
})

/** A request the controller made for `cause`, as the API client reports it. */
function apiRequestFor(cause: unknown) {
  act(() => {
    callingStore.getState().addRequest({ id: 1, time: 5, method: 'POST', path: '/crm/v3/objects/calls', status: 201, durationMs: 9, tag: new CallingCause(cause) })
    callingStore.getState().flushTraffic()
  })
}

test('the Ladder view draws the same traffic: arrows focusable with their text alternative, the request linked to its message, the payload on Enter', async () => {
  const user = userEvent.setup()
  render(<InspectorPanel />)
  await seedCall()
  apiRequestFor(outgoing)
  await user.click(screen.getByRole('button', { name: 'Ladder' }))
  expect(screen.getByRole('button', { name: 'Ladder' })).toHaveAttribute('aria-pressed', 'true')
  expect(screen.queryByRole('list', { name: 'Messages' })).toBeNull()
  const ladder = screen.getByRole('region', { name: 'Ladder diagram' })
  const arrows = within(ladder).getAllByRole('listitem')
  // The request starts after its cause; its answer came after message 4 (afterSeq).
  expect(arrows.map((a) => a.getAttribute('data-arrow'))).toEqual(['m1', 'm2', 'm3', 'q1', 'm4', 'a1'])
  const started = arrows[2]!
  expect(started).toHaveAccessibleName(/^#3 OUTGOING_CALL_STARTED, widget → host, .*caused POST \/crm\/v3\/objects\/calls → 201/)
  expect(arrows[3]).toHaveAccessibleName(/^Request POST \/crm\/v3\/objects\/calls → 201, host → CRM API, .*caused by #3 OUTGOING_CALL_STARTED/)
  // One tab stop; the arrow keys move it.
  expect(arrows.filter((a) => a.getAttribute('tabindex') === '0')).toEqual([arrows[0]])
  act(() => arrows[0]!.focus())
  expect(arrows[0]).toHaveFocus()
  await user.keyboard('{ArrowDown}{ArrowDown}')
  expect(within(ladder).getAllByRole('listitem')[2]).toHaveFocus()
  await user.keyboard('{Enter}')
  const details = within(ladder).getByRole('region', { name: 'Details of #3 OUTGOING_CALL_STARTED' })
  // The payload as the list shows it, hostile text as text.
  expect(within(details).getByRole('tree')).toHaveTextContent('<img src=x onerror=alert(1)>')
  expect(document.querySelector('img')).toBeNull()
  await user.click(within(details).getByRole('button', { name: 'Request: POST /crm/v3/objects/calls → 201' }))
  expect(within(ladder).getByRole('region', { name: 'Details of POST /crm/v3/objects/calls → 201' })).toBeInTheDocument()
  expect(within(ladder).getAllByRole('listitem')[3]).toHaveFocus()
})

test('Import loads a saved traffic file and shows its ladder; a malformed file gets a clear error, and the inspector stays', async () => {
  const user = userEvent.setup()
  render(<InspectorPanel />)
  const input = screen.getByLabelText('Import a traffic file')
  await user.upload(input, new File(['{"format":"ringside-traffic","version":1,"exportedAt":"x","messages":[{"seq":1}],"requests":[]}'], 'broken.json', { type: 'application/json' }))
  expect(await screen.findByRole('alert')).toHaveTextContent('Could not import broken.json: Not a usable Ringside traffic file: messages[0].time: ')
  expect(screen.getByRole('region', { name: 'Message inspector' })).toBeInTheDocument()

  const saved = new TrafficBuilder().handshake().call('call-9', 909).file({ findings: [] })
  await user.upload(input, new File([JSON.stringify(saved)], 'ci-run.json', { type: 'application/json' }))
  expect(await screen.findByRole('status')).toHaveTextContent('Showing the imported file ci-run.json: 12 messages, 6 API requests')
  expect(screen.queryByRole('alert')).toBeNull()
  const ladder = screen.getByRole('region', { name: 'Ladder diagram' })
  expect(within(ladder).getByRole('option', { name: /^Outgoing call call-9 · engagement 909/ })).toBeInTheDocument()
  expect(within(ladder).getAllByRole('listitem', { name: /^Request PATCH \/crm\/v3\/objects\/calls\/909 → 200/ })).toHaveLength(3)
  await user.click(screen.getByRole('button', { name: 'Back to live traffic' }))
  expect(screen.queryByRole('status')).toBeNull()
})

test('messages ignored from other windows are shown in the summary, and Clear resets them', async () => {
  const user = userEvent.setup()
  render(<InspectorPanel />)
  expect(screen.queryByText(/from other windows/)).toBeNull()
  act(() => callingStore.getState().patch({ foreignDropped: { count: 3, lastOrigin: 'http://evil.test', lastReason: 'unexpected source window' } }))
  const summary = screen.getByRole('region', { name: 'Conformance summary' })
  expect(within(summary).getByText(/Ignored 3 messages from other windows/)).toHaveTextContent('last from http://evil.test')
  await user.click(screen.getByRole('button', { name: 'Clear' }))
  expect(screen.queryByText(/from other windows/)).toBeNull()
})

test('a call event the host ignored by its call verdict reads "ignored", not "valid" (the inspector agrees with the host)', async () => {
  render(<InspectorPanel />)
  await seedCall()
  await traffic('in', { type: 'CALL_ANSWERED', messageId: 'w_5', data: { externalCallId: 'never-started' } })
  expect(item('CALL_ANSWERED')).toHaveTextContent(/ignored: .*never-started/)
  expect(item('CALL_ANSWERED')).not.toHaveTextContent(/\bvalid\b/)
  await traffic('in', { type: 'CALL_ANSWERED', messageId: 'w_6', data: { externalCallId: 'c1' } })
  expect(within(list()).getAllByRole('listitem', { name: /^CALL_ANSWERED, / })[1]).toHaveTextContent('valid')
})

test('a new message draws only its own row: the rows already shown are not drawn again (a flood stays cheap)', async () => {
  render(<InspectorPanel />)
  for (let i = 0; i < 10; i += 1) await traffic('in', { type: 'NOT_A_TYPE', messageId: 'same' }, { valid: false, reason: 'unknown type' })
  expect(items()).toHaveLength(10)
  // Each row formats its time stamp (toISOString) when it is drawn; one more message must draw one row.
  const drawn = vi.spyOn(Date.prototype, 'toISOString')
  await traffic('in', { type: 'NOT_A_TYPE', messageId: 'same' }, { valid: false, reason: 'unknown type' })
  expect(items()).toHaveLength(11)
  expect(drawn).toHaveBeenCalledTimes(1)
  // Opening one row draws that row only.
  drawn.mockClear()
  await userEvent.click(within(items()[0]!).getAllByRole('button')[0]!)
  expect(drawn).toHaveBeenCalledTimes(1)
})

test('a hidden inspector draws nothing and follows no traffic; shown again, it lists all of it with the filter it had', async () => {
  const user = userEvent.setup()
  const renders = vi.fn()
  const panel = (visible: boolean) => (
    <Profiler id="inspector" onRender={renders}>
      <InspectorPanel visible={visible} />
    </Profiler>
  )
  const { rerender } = render(panel(true))
  await traffic('out', { type: 'SYNC', messageId: 'host_1', hostUrl: 'http://localhost:3000' })
  await user.type(screen.getByLabelText('Filter by type'), 'not_a')
  rerender(panel(false))
  expect(screen.queryByRole('region', { name: 'Message inspector' })).toBeNull()
  renders.mockClear()
  for (let i = 0; i < 5; i += 1) await traffic('in', { type: 'NOT_A_TYPE', messageId: 'same' }, { valid: false, reason: 'unknown type' })
  expect(renders).not.toHaveBeenCalled()
  rerender(panel(true))
  expect(screen.getByLabelText('Filter by type')).toHaveValue('not_a')
  expect(items()).toHaveLength(5)
  expect(screen.getByText('5 of 6 messages')).toBeInTheDocument()
})
