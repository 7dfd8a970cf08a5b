import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { JsonTree } from './json-tree.tsx'

const value = { type: 'CALL_ENDED', data: { externalCallId: 'c1', engagementId: 5, tags: ['a', 'b'] }, ok: true, none: null }

test('the root is open; branches expand and collapse by click and by keyboard', async () => {
  const user = userEvent.setup()
  render(<JsonTree value={value} label="Message" rootLabel="message" />)
  const tree = screen.getByRole('tree', { name: 'Message' })
  const root = within(tree).getAllByRole('treeitem')[0]!
  expect(root).toHaveAttribute('aria-expanded', 'true')
  const data = within(tree).getByRole('treeitem', { name: /^data/ })
  expect(data).toHaveAttribute('aria-expanded', 'false')
  await user.click(data)
  expect(data).toHaveAttribute('aria-expanded', 'true')
  expect(within(data).getByText('"c1"')).toBeInTheDocument()

  root.focus()
  await user.keyboard('{ArrowDown}')
  expect(within(tree).getByRole('treeitem', { name: /^type/ })).toHaveFocus()
  await user.keyboard('{ArrowDown}{ArrowLeft}')
  expect(data).toHaveAttribute('aria-expanded', 'false')
  await user.keyboard('{ArrowRight}')
  expect(data).toHaveAttribute('aria-expanded', 'true')
  await user.keyboard('{ArrowRight}')
  expect(within(data).getByRole('treeitem', { name: /^externalCallId/ })).toHaveFocus()
  await user.keyboard('{ArrowLeft}')
  expect(data).toHaveFocus()
  await user.keyboard('{End}')
  expect(within(tree).getByRole('treeitem', { name: /^none/ })).toHaveFocus()
  await user.keyboard('{Home}')
  expect(root).toHaveFocus()
})

test('values are shown as text with their JSON type, cycles and odd values safely', () => {
  const cyclic: Record<string, unknown> = { name: '<script>x</script>' }
  cyclic.self = cyclic
  render(<JsonTree value={cyclic} label="Cyclic" initialDepth={3} />)
  expect(screen.getByText('"<script>x</script>"')).toBeInTheDocument()
  expect(screen.getByText('[circular]')).toBeInTheDocument()
  expect(document.querySelector('script')).toBeNull()
})
