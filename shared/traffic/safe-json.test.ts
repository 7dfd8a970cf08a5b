import { safeJson } from './safe-json.ts'

test('safeJson serialises cycles and bigints without throwing', () => {
  const a: Record<string, unknown> = { n: 10n, list: [1, 2] }
  a.again = a
  a.sibling = a.list
  expect(JSON.parse(safeJson(a))).toEqual({ n: '10n', list: [1, 2], again: '[circular]', sibling: [1, 2] })
})
