/**
 * Association labels, association limits and the pipeline audit trail are
 * data: written through the API over HTTP, they are there after the server
 * restarts on the same data folder (first from the journal, then from the
 * snapshot it compacts into at startup).
 */
import { afterAll, expect, test } from 'vitest'
import { ACCOUNT } from '../../core/http/auth.ts'
import { startRingside } from '../server.ts'
import { freePortPair, removeScratchDirs, scratchDir } from './support.ts'

afterAll(() => removeScratchDirs())

async function api(origin: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { authorization: `Bearer ${ACCOUNT.privateAppToken}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  expect(response.ok, `${method} ${path}: ${response.status} ${text}`).toBe(true)
  return text ? JSON.parse(text) : undefined
}

test('labels, limits, associations through a label and the pipeline audit survive two restarts', { timeout: 30_000 }, async () => {
  const data = scratchDir('schema-restart')
  const start = async () => {
    const server = await startRingside({ port: await freePortPair(), data, pages: 'none' })
    return { server, origin: server.url.slice(0, -1) }
  }
  const first = await start()
  const label = (await api(first.origin, 'POST', '/crm/associations/v4/contacts/companies/labels', { name: 'restart_label', label: 'Restart' })).results[0]
  await api(first.origin, 'PUT', '/crm/v4/objects/contacts/2/associations/companies/3', [{ associationCategory: 'USER_DEFINED', associationTypeId: label.typeId }])
  await api(first.origin, 'POST', '/crm/v4/associations/definitions/configurations/contacts/companies/batch/create', {
    inputs: [{ category: 'USER_DEFINED', typeId: label.typeId, maxToObjectIds: 2 }],
  })
  const pipeline = await api(first.origin, 'POST', '/crm/v3/pipelines/tickets', { label: 'Restart', displayOrder: 4, stages: [{ label: 'Open', displayOrder: 0, metadata: { ticketState: 'OPEN' } }] })
  await api(first.origin, 'PATCH', `/crm/v3/pipelines/tickets/${pipeline.id}`, { label: 'Restarted' })
  const read = async (origin: string) => ({
    labels: (await api(origin, 'GET', '/crm/v4/associations/contacts/companies/labels')).results,
    linked: (await api(origin, 'GET', '/crm/v4/objects/contacts/2/associations/companies')).results,
    limits: (await api(origin, 'GET', '/crm/v4/associations/definitions/configurations/all')).results,
    audit: (await api(origin, 'GET', `/crm/v3/pipelines/tickets/${pipeline.id}/audit`)).results,
  })
  const before = await read(first.origin)
  expect(before.labels).toContainEqual(label)
  expect(before.limits).toHaveLength(1)
  expect(before.audit.map((e: { action: string }) => e.action)).toEqual(['UPDATE', 'CREATE'])
  await first.server.close()

  for (let restart = 0; restart < 2; restart++) {
    const next = await start()
    try {
      expect(await read(next.origin)).toEqual(before)
    } finally {
      await next.server.close()
    }
  }
})
