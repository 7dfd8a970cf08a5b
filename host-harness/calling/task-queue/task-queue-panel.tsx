/**
 * The task queue page (#/tasks: the open CALL tasks, Start queue) and the bar
 * shown above every page while the queue is worked (which task, Skip, Stop).
 */
import { useEffect, useState } from 'react'
import { onApiChange } from '../../lib/api-client.ts'
import { recordHref } from '../../lib/hash-routes.ts'
import type { QueueTask } from './task-queue.ts'
import { taskQueue } from './task-queue-instance.ts'
import { useTaskQueue } from './task-queue.ts'
import './task-queue.css'

function due(task: QueueTask): string {
  if (!task.dueAt) return 'no due date'
  const d = new Date(task.dueAt)
  return Number.isNaN(d.getTime()) ? task.dueAt : d.toLocaleString()
}


export function TaskQueuePage() {
  const status = useTaskQueue(taskQueue, (s) => s.status)
  const error = useTaskQueue(taskQueue, (s) => s.error)
  const [tasks, setTasks] = useState<QueueTask[] | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)

  useEffect(() => {
    let alive = true
    const load = () =>
      taskQueue.load().then(
        (list) => alive && (setTasks(list), setLoadError(null)),
        (e: unknown) => alive && setLoadError(e instanceof Error ? e.message : String(e)),
      )
    void load()
    const off = onApiChange((change) => {
      if (change.path.startsWith('/crm/v3/objects/tasks')) void load()
    })
    return () => {
      alive = false
      off()
    }
  }, [])

  return (
    <section className="page task-queue-page">
      <h1>Task queue</h1>
      <p className="muted">
        Open call tasks (<code>hs_task_type</code> CALL), earliest due first. <strong>Start queue</strong> opens the first task's record; after each
        call the widget logs, the task is marked completed and the next record opens. While the queue is worked, the widget stays visible
        whatever <code>hideWidget</code> says, as in the real CRM.
      </p>
      <div className="button-row">
        <button type="button" className="primary" onClick={() => void taskQueue.start()} disabled={status === 'loading' || status === 'working' || tasks?.length === 0}>
          Start queue
        </button>
        {status === 'working' ? (
          <button type="button" onClick={() => taskQueue.stop()}>
            Stop queue
          </button>
        ) : null}
      </div>
      {error ? <p role="alert">{error}</p> : null}
      {loadError ? <p role="alert">Could not load the call tasks: {loadError}</p> : null}
      {tasks === null && !loadError ? <p className="muted">Loading…</p> : null}
      {tasks !== null && tasks.length === 0 ? <p>No open call tasks.</p> : null}
      {tasks !== null && tasks.length > 0 ? (
        <ol className="task-queue-list" aria-label="Open call tasks">
          {tasks.map((task) => {
            const href = task.record ? recordHref(task.record.objectType, task.record.objectId) : null
            return (
              <li key={task.id}>
                <strong>{task.subject}</strong> · due {due(task)}
                {task.priority && task.priority !== 'NONE' ? ` · ${task.priority.toLowerCase()} priority` : ''}
                {href ? (
                  <>
                    {' · '}
                    <a href={href}>Open record</a>
                  </>
                ) : (
                  ' · no associated record'
                )}
              </li>
            )
          })}
        </ol>
      ) : null}
    </section>
  )
}

/** Shown above the page while a queue is worked or just finished. */
export function TaskQueueBar() {
  const status = useTaskQueue(taskQueue, (s) => s.status)
  const tasks = useTaskQueue(taskQueue, (s) => s.tasks)
  const index = useTaskQueue(taskQueue, (s) => s.index)
  const done = useTaskQueue(taskQueue, (s) => s.done)
  const error = useTaskQueue(taskQueue, (s) => s.error)
  if (status !== 'working' && status !== 'finished') return null
  const task = tasks[index]
  return (
    <div className="task-queue-bar" role="region" aria-label="Task queue">
      {status === 'working' && task ? (
        <>
          <span>
            Task queue · task {index + 1} of {tasks.length}: <strong>{task.subject}</strong>
            {done > 0 ? ` · ${done} done` : ''}
          </span>
          <button type="button" onClick={() => taskQueue.skip()}>
            Skip task
          </button>
          <button type="button" onClick={() => taskQueue.stop()}>
            Stop queue
          </button>
        </>
      ) : (
        <>
          <span>
            Task queue finished: {done} of {tasks.length} {tasks.length === 1 ? 'task' : 'tasks'} done.
          </span>
          <button type="button" onClick={() => taskQueue.stop()}>
            Close
          </button>
        </>
      )}
      {error ? <span className="task-queue-bar__error">{error}</span> : null}
    </div>
  )
}
