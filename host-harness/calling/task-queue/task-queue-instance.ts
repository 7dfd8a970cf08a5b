/** The app's task queue (task-queue.ts), on the app's API client. */
import { api } from '../../lib/api-client.ts'
import { TaskQueue } from './task-queue.ts'

export const taskQueue = new TaskQueue(api, (objectType, objectId) => {
  window.location.hash = `/${objectType}/${encodeURIComponent(objectId)}`
  return true
})
