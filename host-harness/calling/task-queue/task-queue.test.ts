import { api } from '../../lib/api-client.ts'
import { installTestCrm } from '../../lib/testing/test-crm.ts'
import { TaskQueue } from './task-queue.ts'

let queue: TaskQueue
let opened: string[]

beforeEach(() => {
  installTestCrm()
  opened = []
  queue = new TaskQueue(api, (type, id) => {
    opened.push(`${type}/${id}`)
    return true
  })
})

const taskStatus = async (id: string) =>
  (await api.get<{ properties: Record<string, string | null> }>(`/crm/v3/objects/tasks/${id}`, { query: { properties: 'hs_task_status,hs_task_completion_date' } })).properties

test('Start queue opens the first call task’s record; each logged call marks its task done and opens the next record', async () => {
  await queue.start()
  const { tasks } = queue.store.getState()
  expect(tasks.map((t) => t.subject)).toEqual([
    'Call James about the renewal quote',
    'Follow up with Aisha on the support pilot',
    'Check in with Priya after the line expansion',
  ])
  expect(queue.keepVisible()).toBe(true)
  expect(opened).toEqual(['contacts/2'])

  await queue.onCallLogged({ externalCallId: 'c1', outcome: 'completed' })
  expect(await taskStatus(tasks[0]!.id)).toMatchObject({ hs_task_status: 'COMPLETED', hs_task_completion_date: expect.any(String) })
  expect(opened).toEqual(['contacts/2', 'contacts/3'])

  queue.skip()
  expect(opened).toEqual(['contacts/2', 'contacts/3', 'contacts/5'])
  expect((await taskStatus(tasks[1]!.id)).hs_task_status).toBe('NOT_STARTED')

  await queue.onCallLogged({ externalCallId: 'c3', outcome: 'transferred' })
  expect(queue.store.getState()).toMatchObject({ status: 'finished', done: 2 })
  expect(queue.keepVisible()).toBe(false)
  // the queue now holds only the skipped task
  expect((await queue.load()).map((t) => t.id)).toEqual([tasks[1]!.id])
})

test('a call logged outside a queue changes no task; Stop leaves the queue', async () => {
  await queue.onCallLogged({ externalCallId: 'c0', outcome: 'completed' })
  expect(await queue.load()).toHaveLength(3)
  await queue.start()
  queue.stop()
  expect(queue.store.getState().status).toBe('idle')
  expect(queue.keepVisible()).toBe(false)
})
