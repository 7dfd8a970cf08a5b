/**
 * Custom object schemas and records of the new type through the official
 * client (@hubspot/api-client 14.x), its global `fetch` pointed at the
 * service: the client's own requests, every answer read into its models.
 */
import { officialClient as hubspot, useServiceBehindFetch } from './official-client.ts'

const service = useServiceBehindFetch()

test('schemas: create, get by each name, list, update, associations, archive', async () => {
  const schemas = hubspot().crm.schemas.coreApi
  const created = await schemas.create({
    name: 'subscription_plan',
    labels: { singular: 'Plan', plural: 'Plans' },
    primaryDisplayProperty: 'plan_name',
    requiredProperties: ['plan_name'],
    searchableProperties: ['plan_name'],
    secondaryDisplayProperties: [],
    properties: [
      { name: 'plan_name', label: 'Plan name', type: 'string' as never, fieldType: 'text' },
      { name: 'seats', label: 'Seats', type: 'number' as never, fieldType: 'number' },
    ],
    associatedObjects: ['CONTACT'],
  })
  expect(created).toMatchObject({ objectTypeId: '2-1', fullyQualifiedName: 'p123456_subscription_plan', name: 'subscription_plan' })
  expect(created.createdAt).toBeInstanceOf(Date)
  expect(created.properties.map((p) => p.name)).toEqual(['plan_name', 'seats'])
  expect(created.associations[0]).toMatchObject({ fromObjectTypeId: '2-1', toObjectTypeId: '0-1', name: 'subscription_plan_to_contact' })
  expect((await schemas.getById('p_subscription_plan')).id).toBe('1')
  expect((await schemas.getAll()).results.map((s) => s.name)).toEqual(['subscription_plan'])
  const updated = await schemas.update('2-1', { labels: { plural: 'Subscription plans' }, secondaryDisplayProperties: ['seats'] })
  expect(updated).toMatchObject({ portalId: 123456, labels: { singular: 'Plan', plural: 'Subscription plans' } })
  const association = await schemas.createAssociation('2-1', { fromObjectTypeId: '2-1', toObjectTypeId: '0-3' })
  expect(association).toMatchObject({ fromObjectTypeId: '2-1', toObjectTypeId: '0-3', name: 'subscription_plan_to_deal' })
  expect(association.createdAt).toBeInstanceOf(Date)
  await schemas.archiveAssociation('2-1', association.id)
  await schemas.archive('2-1')
  await expect(schemas.getById('2-1')).rejects.toMatchObject({ code: 404 })
  expect((await schemas.getAll(true)).results.map((s) => s.archived)).toEqual([true])
})

test('records of a custom type through the generic objects API: create with an association, read, update, page, search, archive; a call associated with one', async () => {
  const crm = hubspot().crm
  const schema = await crm.schemas.coreApi.create({
    name: 'vehicle',
    labels: { singular: 'Vehicle', plural: 'Vehicles' },
    requiredProperties: ['plate'],
    searchableProperties: ['plate'],
    properties: [{ name: 'plate', label: 'Plate', type: 'string' as never, fieldType: 'text', hasUniqueValue: true }],
    associatedObjects: ['CONTACT', 'CALL'],
  })
  const [toContact, toCall] = schema.associations.map((a) => Number(a.id))
  const made = await crm.objects.basicApi.create(schema.fullyQualifiedName!, {
    properties: { plate: 'RS-101' },
    associations: [{ to: { id: '1' }, types: [{ associationCategory: 'USER_DEFINED' as never, associationTypeId: toContact! }] }],
  })
  const read = await crm.objects.basicApi.getById('2-1', made.id, ['plate'], undefined, ['contacts'])
  expect(read.properties.plate).toBe('RS-101')
  expect(read.associations?.contacts?.results[0]).toMatchObject({ id: '1', type: 'vehicle_to_contact' })
  expect((await crm.objects.basicApi.getById('p_vehicle', 'RS-101', ['plate'], undefined, undefined, false, 'plate')).id).toBe(made.id)
  expect((await crm.objects.basicApi.update('2-1', made.id, { properties: { plate: 'RS-102' } })).properties.plate).toBe('RS-102')
  const page = await crm.objects.basicApi.getPage('2-1', 10)
  expect(page.results.map((r) => r.id)).toEqual([made.id])
  const found = await crm.objects.searchApi.doSearch('2-1', { query: 'RS-10', limit: 10, after: '0', sorts: [], properties: ['plate'], filterGroups: [] })
  expect(found.total).toBe(1)

  const call = await crm.objects.calls.basicApi.create({
    properties: { hs_call_title: 'Roadside assistance', hs_call_direction: 'INBOUND' },
    associations: [{ to: { id: made.id }, types: [{ associationCategory: 'USER_DEFINED' as never, associationTypeId: service().objects.customTypes.associationTypesFrom('calls').find((t) => t.to === '2-1')!.typeId }] }],
  })
  expect(toCall).toBeGreaterThan(0)
  const withCalls = await crm.objects.basicApi.getById('2-1', made.id, undefined, undefined, ['calls'])
  expect(withCalls.associations?.calls?.results.map((r) => r.id)).toEqual([call.id])

  await crm.objects.basicApi.archive('2-1', made.id)
  await expect(crm.objects.basicApi.getById('2-1', made.id)).rejects.toMatchObject({ code: 404 })
  await expect(crm.objects.basicApi.create('2-1', { properties: {}, associations: [] })).rejects.toMatchObject({ code: 400, body: { category: 'VALIDATION_ERROR' } })
})
