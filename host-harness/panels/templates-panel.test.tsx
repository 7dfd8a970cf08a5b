import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { TemplatesPanel } from './templates-panel.tsx'
import { callApi, installTestCrm } from '../lib/test-crm.ts'
import type { CrmService } from '../../emulator/core/service.ts'

let service: CrmService

beforeEach(() => {
  service = installTestCrm()
})

/** user-event treats { and [ as key descriptors; double them to type them literally. */
const literal = (text: string) => text.replace(/[{[]/g, (c) => c + c)

test('creates a template with tokens and previews it live with sample values', async () => {
  const user = userEvent.setup()
  render(<TemplatesPanel previewDelayMs={0} />)
  const form = screen.getByRole('form', { name: 'New template' })
  await user.type(within(form).getByRole('textbox', { name: 'Template name' }), 'Call summary')
  await user.type(within(form).getByRole('textbox', { name: /Header template/ }), literal('Call with **{{caller}}**'))
  await user.type(within(form).getByRole('textbox', { name: 'Detail template' }), literal('Lasted {{minutes}} min, outcome {{outcome}}'))

  await user.click(within(form).getByRole('button', { name: 'Add token' }))
  const first = within(form).getByRole('group', { name: 'Token 1' })
  await user.type(within(first).getByRole('textbox', { name: 'Token name' }), 'caller')
  await user.type(within(first).getByRole('textbox', { name: 'Token label' }), 'Caller')

  await user.click(within(form).getByRole('button', { name: 'Add token' }))
  const second = within(form).getByRole('group', { name: 'Token 2' })
  await user.type(within(second).getByRole('textbox', { name: 'Token name' }), 'minutes')
  await user.type(within(second).getByRole('textbox', { name: 'Token label' }), 'Minutes')
  await user.selectOptions(within(second).getByRole('combobox', { name: 'Token type' }), 'number')

  await user.click(within(form).getByRole('button', { name: 'Add token' }))
  const third = within(form).getByRole('group', { name: 'Token 3' })
  await user.type(within(third).getByRole('textbox', { name: 'Token name' }), 'outcome')
  await user.type(within(third).getByRole('textbox', { name: 'Token label' }), 'Outcome')
  await user.selectOptions(within(third).getByRole('combobox', { name: 'Token type' }), 'enumeration')
  await user.type(within(third).getByRole('textbox', { name: /Options/ }), 'won=Won{Enter}lost=Lost')

  // Generous waits: the preview follows every keystroke through the API, slow on a loaded machine.
  const slow = { timeout: 5000 }
  const preview = await screen.findByRole('region', { name: 'Rendered preview' }, slow)
  await within(preview).findByText('Sample Caller', {}, slow)
  expect(within(preview).getByText('Sample Caller').tagName).toBe('STRONG')
  expect(await within(preview).findByText('Lasted 42 min, outcome won', {}, slow)).toBeInTheDocument()

  await user.click(within(form).getByRole('button', { name: 'Create template' }))
  expect(await screen.findByRole('status', {}, slow)).toHaveTextContent(/Template “Call summary” created with id \S+\./)
  expect(await screen.findByRole('button', { name: /^Call summary #/ }, slow)).toBeInTheDocument()

  const stored = await callApi<{ results: Array<{ name: string; tokens: Array<{ name: string; type: string; options?: unknown }> }> }>(
    service,
    'GET',
    '/crm/v3/timeline/1001/event-templates?hapikey=dev-key-local',
  )
  const template = stored.results.find((t) => t.name === 'Call summary')
  expect(template?.tokens.map((t) => [t.name, t.type])).toEqual([
    ['caller', 'string'],
    ['minutes', 'number'],
    ['outcome', 'enumeration'],
  ])
  expect(template?.tokens[2]?.options).toEqual([
    { value: 'won', label: 'Won' },
    { value: 'lost', label: 'Lost' },
  ])
  // Much typing through user-event: allow for a loaded machine.
}, 20_000)

test('a sample value typed in the preview replaces the default one', async () => {
  const user = userEvent.setup()
  render(<TemplatesPanel previewDelayMs={0} />)
  const form = screen.getByRole('form', { name: 'New template' })
  await user.type(within(form).getByRole('textbox', { name: /Header template/ }), literal('Hello {{who}}'))
  await user.click(within(form).getByRole('button', { name: 'Add token' }))
  await user.type(within(within(form).getByRole('group', { name: 'Token 1' })).getByRole('textbox', { name: 'Token name' }), 'who')
  const sample = await screen.findByRole('textbox', { name: 'Sample who' })
  await user.clear(sample)
  await user.type(sample, 'Ada')
  const preview = screen.getByRole('region', { name: 'Rendered preview' })
  expect(await within(preview).findByText('Hello Ada')).toBeInTheDocument()
})

test('an unsupported template construct shows the API error in the preview', async () => {
  const user = userEvent.setup()
  render(<TemplatesPanel previewDelayMs={0} />)
  const form = screen.getByRole('form', { name: 'New template' })
  await user.type(within(form).getByRole('textbox', { name: /Header template/ }), literal('{{> partial}}'))
  const alert = await screen.findByRole('alert')
  expect(alert).toHaveTextContent('The template cannot be rendered')
  expect(alert).toHaveTextContent(/Partials are not supported/)
})

test('a reserved token name is refused by the API with its message', async () => {
  const user = userEvent.setup()
  render(<TemplatesPanel previewDelayMs={0} />)
  const form = screen.getByRole('form', { name: 'New template' })
  await user.type(within(form).getByRole('textbox', { name: 'Template name' }), 'Bad tokens')
  await user.click(within(form).getByRole('button', { name: 'Add token' }))
  const token = within(form).getByRole('group', { name: 'Token 1' })
  await user.type(within(token).getByRole('textbox', { name: 'Token name' }), 'lookup')
  await user.type(within(token).getByRole('textbox', { name: 'Token label' }), 'Lookup')
  await user.click(within(form).getByRole('button', { name: 'Create template' }))
  const alert = await screen.findByRole('alert', {}, { timeout: 3000 })
  expect(alert).toHaveTextContent('VALIDATION_ERROR')
  expect(alert).toHaveTextContent(/reserved/)
})
