/**
 * Task queue mode: the user works a queue of CALL tasks, one record after another.
 *
 * The tasks are the API's (`/crm/v3/objects/tasks` with `hs_task_type` CALL, not
 * COMPLETED, earliest due first). Start opens the first task's record; after each
 * call the widget logs (CALL_COMPLETED accepted, or CALL_TRANSFERRED) the task is
 * marked COMPLETED and the next task's record opens. While the queue is worked the
 * widget stays visible whatever CALL_COMPLETED's `hideWidget` says: the real CRM
 * ignores hideWidget when the user is in a task queue with task type Call
 * (https://developers.hubspot.com/docs/guides/apps/extensions/calling-extensions/calling-sdk).
 *
 * Plain TS with a vanilla Zustand store (the components read it with useTaskQueue).
 */
import { createStore, useStore, type StoreApi } from 'zustand'
import { ApiRequestError } from '../../lib/api-client.ts'
import type { ApiPort, LoggedCall } from '../core/controller/controller.ts'

export interface QueueTask {
  id: string
  subject: string
  /** hs_timestamp: when it is due (ISO). */
  dueAt: string | null
  priority: string | null
  /** The record to call from (the task's first contact, else company, deal or ticket). */
  record: { objectType: string; objectId: string } | null
}

export interface TaskQueueState {
  status: 'idle' | 'loading' | 'working' | 'finished' | 'failed'
  tasks: QueueTask[]
  /** Index in `tasks` of the task being worked. */
  index: number
  /** Tasks marked done in this run. */
  done: number
  error: string | null
}

interface TaskObject {
  id: string
  properties: Record<string, string | null | undefined>
  associations?: Record<string, { results?: Array<{ id: string }> }>
}

const RECORD_TYPES = ['contacts', 'companies', 'deals', 'tickets'] as const

const errorText = (error: unknown) =>
  error instanceof ApiRequestError ? `${error.message} (HTTP ${error.status})` : error instanceof Error ? error.message : String(error)

export class TaskQueue {
  readonly store: StoreApi<TaskQueueState>
  readonly #api: ApiPort
  #navigate: (objectType: string, objectId: string) => boolean
  readonly #now: () => number

  constructor(api: ApiPort, navigate: (objectType: string, objectId: string) => boolean, now: () => number = () => Date.now()) {
    this.#api = api
    this.#navigate = navigate
    this.#now = now
    this.store = createStore<TaskQueueState>()(() => ({ status: 'idle', tasks: [], index: 0, done: 0, error: null }))
  }

  setNavigate(navigate: (objectType: string, objectId: string) => boolean): void {
    this.#navigate = navigate
  }

  /** True while a queue is worked: hideWidget is then ignored. */
  keepVisible(): boolean {
    return this.store.getState().status === 'working'
  }

  get current(): QueueTask | null {
    const s = this.store.getState()
    return s.status === 'working' ? (s.tasks[s.index] ?? null) : null
  }

  /** The open CALL tasks, earliest due first, each with the record to call from. */
  async load(): Promise<QueueTask[]> {
    const found = await this.#api.post<{ results: TaskObject[] }>('/crm/v3/objects/tasks/search', {
      filterGroups: [
        {
          filters: [
            { propertyName: 'hs_task_type', operator: 'EQ', value: 'CALL' },
            { propertyName: 'hs_task_status', operator: 'NEQ', value: 'COMPLETED' },
          ],
        },
      ],
      properties: ['hs_task_subject', 'hs_timestamp', 'hs_task_priority'],
      sorts: [{ propertyName: 'hs_timestamp', direction: 'ASCENDING' }],
      limit: 100,
    })
    const tasks: QueueTask[] = []
    for (const task of found.results ?? []) {
      const full = await this.#api.get<TaskObject>(`/crm/v3/objects/tasks/${encodeURIComponent(task.id)}`, {
        query: { associations: RECORD_TYPES.join(',') },
      })
      let record: QueueTask['record'] = null
      for (const type of RECORD_TYPES) {
        const first = full.associations?.[type]?.results?.[0]
        if (first) {
          record = { objectType: type, objectId: first.id }
          break
        }
      }
      tasks.push({
        id: task.id,
        subject: task.properties.hs_task_subject ?? `Task ${task.id}`,
        dueAt: task.properties.hs_timestamp ?? null,
        priority: task.properties.hs_task_priority ?? null,
        record,
      })
    }
    return tasks
  }

  /** Start queue: loads the open call tasks and opens the first task's record. */
  async start(): Promise<void> {
    this.store.setState({ status: 'loading', error: null, done: 0, index: 0 })
    try {
      const tasks = await this.load()
      if (tasks.length === 0) {
        this.store.setState({ status: 'finished', tasks, error: null })
        return
      }
      this.store.setState({ status: 'working', tasks, index: 0 })
      this.#open(0)
    } catch (error) {
      this.store.setState({ status: 'failed', error: `Could not load the call tasks: ${errorText(error)}` })
    }
  }

  /** Leaves the queue (the tasks stay as they are). */
  stop(): void {
    this.store.setState({ status: 'idle', tasks: [], index: 0, error: null })
  }

  /** Moves on without marking the task done. */
  skip(): void {
    this.#advance()
  }

  /** The controller's hook: a call was logged, so the current task is done; the next record opens. */
  async onCallLogged(_call: LoggedCall): Promise<void> {
    const task = this.current
    if (!task) return
    try {
      await this.#api.patch(`/crm/v3/objects/tasks/${encodeURIComponent(task.id)}`, {
        properties: { hs_task_status: 'COMPLETED', hs_task_completion_date: new Date(this.#now()).toISOString() },
      })
      this.store.setState((s) => ({ done: s.done + 1 }))
    } catch (error) {
      this.store.setState({ error: `Could not mark task ${task.id} done: ${errorText(error)}` })
    }
    this.#advance()
  }

  #advance(): void {
    const s = this.store.getState()
    if (s.status !== 'working') return
    const next = s.index + 1
    if (next >= s.tasks.length) {
      this.store.setState({ status: 'finished', index: next })
      return
    }
    this.store.setState({ index: next })
    this.#open(next)
  }

  #open(index: number): void {
    const task = this.store.getState().tasks[index]
    if (!task?.record) {
      this.store.setState({ error: `Task "${task?.subject ?? index}" has no record to call from.` })
      return
    }
    this.#navigate(task.record.objectType, task.record.objectId)
  }
}

export function useTaskQueue<T>(queue: TaskQueue, selector: (state: TaskQueueState) => T): T {
  return useStore(queue.store, selector)
}
