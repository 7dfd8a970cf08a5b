/**
 * The API coverage table of docs/api-coverage.md is what `npm run docs:coverage` writes from
 * the route table: a route added, removed or given another path form without
 * regenerating it fails here.
 */
import { readFileSync } from 'node:fs'
import { coverageMarkdown, COVERAGE_PAGE, END, START, withCoverage } from './docs-coverage.ts'

test('docs/api-coverage.md’s table is the one the route table gives (run `npm run docs:coverage` after changing routes)', () => {
  const page = readFileSync(COVERAGE_PAGE, 'utf8')
  expect(withCoverage(page) === page, 'docs/api-coverage.md’s coverage table is stale: run `npm run docs:coverage`').toBe(true)
})

test('the table lists each operation once with its object types, aliases and date-versioned forms', () => {
  const table = coverageMarkdown()
  const rows = table.split('\n').filter((line) => line.startsWith('| GET') || line.startsWith('| POST') || line.startsWith('| PUT') || line.startsWith('| PATCH') || line.startsWith('| DELETE'))
  expect(new Set(rows.map((r) => r.split(' | ').slice(0, 2).join(' '))).size).toBe(rows.length)
  expect(rows).toContain(
    '| GET | `/crm/v3/objects/{objectType}/{objectId}` | every type |  | `/crm/objects/2026-03/{objectType}/{objectId}`<br>`/crm/objects/2026-09/{objectType}/{objectId}` |',
  )
  expect(rows.find((r) => r.startsWith('| GET | `/crm/v3/pipelines/{objectType}` |'))).toContain('| deals, tickets |')
  expect(rows.find((r) => r.startsWith('| POST | `/crm/v4/associations/{fromObjectType}/{toObjectType}/labels` |'))).toContain('`/crm/associations/v4/{fromObjectType}/{toObjectType}/labels`')
  expect(rows.find((r) => r.startsWith('| POST | `/crm/v3/timeline/events` |'))).toContain('`/integrators/timeline/v3/events`')
  expect(rows.find((r) => r.startsWith('| POST | `/crm/v3/associations/{fromObjectType}/{toObjectType}/batch/create` |'))).toMatch(/\| none \|$/)
  expect(rows.find((r) => r.startsWith('| POST | `/_ringside/v1/reset` |'))).toMatch(/\| emulator only \|$/)
})

test('a page without the markers is refused, not silently left alone', () => {
  expect(() => withCoverage('# no markers')).toThrow(/coverage markers/)
  expect(withCoverage(`a\n${START}\nold\n${END}\nb`, 'new')).toBe(`a\n${START}\nnew\n${END}\nb`)
})
