import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { callingStore } from '../core/calling-store.ts'
import { ComposerPanel, checkComposed } from './composer-panel.tsx'
import { hostSendableTypes, presetsFor } from './presets.ts'

beforeEach(() => {
  callingStore.setState(callingStore.getInitialState(), true)
})

test('the composed text is checked as the widget would check it', () => {
  expect(checkComposed('{"type":"END_CALL"}')).toMatchObject({ kind: 'valid', text: 'Valid' })
  expect(checkComposed('{"type":"ENGAGEMENT_CREATED","data":{"engagementId":1}}').text).toContain('deprecated')
  expect(checkComposed('{"type":"VISIBILITY_CHANGED","data":{"isMinimized":true}}')).toMatchObject({ kind: 'invalid', text: expect.stringContaining('isHidden') })
  expect(checkComposed('{"type":"CALL_ENDED","data":{}}')).toMatchObject({ kind: 'invalid', text: 'Invalid: unknown type' })
  expect(checkComposed('{nope').kind).toBe('json-error')
  expect(checkComposed('[1]').kind).toBe('json-error')
})

test('every host-sendable type has presets, and the first preset of each is valid', () => {
  const ctx = { portalId: 123456, ownerId: 1, now: 0 }
  for (const type of hostSendableTypes()) {
    const [first] = presetsFor(type, ctx)
    expect(checkComposed(JSON.stringify(first!.message)).kind, type).toBe('valid')
  }
  expect(hostSendableTypes()).not.toContain('SYNC')
})

test('picking a type loads its preset; invalid JSON cannot be sent; an invalid message can be sent on purpose', async () => {
  const user = userEvent.setup()
  render(<ComposerPanel />)
  const validation = screen.getByRole('status', { name: 'Validation' })
  expect(validation).toHaveTextContent('Valid')
  await user.selectOptions(screen.getByLabelText('Message type'), 'VISIBILITY_CHANGED')
  expect(screen.getByLabelText(/^Message \(JSON/)).toHaveValue(JSON.stringify({ type: 'VISIBILITY_CHANGED', data: { isMinimized: false, isHidden: true } }, null, 2))
  await user.selectOptions(screen.getByLabelText('Preset'), 'Invalid: missing isHidden')
  expect(validation).toHaveTextContent('Invalid: invalid: data.isHidden')
  await user.click(screen.getByRole('button', { name: 'Send invalid message anyway' }))
  // No widget is loaded in this test: the composer says so instead of sending.
  expect(screen.getByText('Not sent: No calling widget is loaded.')).toBeInTheDocument()
  await user.clear(screen.getByLabelText(/^Message \(JSON/))
  await user.type(screen.getByLabelText(/^Message \(JSON/), 'not json')
  expect(validation).toHaveTextContent('Not JSON')
  expect(screen.getByRole('button', { name: 'Send to widget' })).toBeDisabled()
})
