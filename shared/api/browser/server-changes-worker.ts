/**
 * SharedWorker of server mode: one change-stream connection for every page
 * of this origin (see connect.ts), each change passed to every page.
 */
import { followChangeStream, type ServerChangeEvent } from './server-changes.ts'

declare const self: { onconnect: ((event: MessageEvent) => void) | null }

const ports = new Set<MessagePort>()
let following = false

self.onconnect = (event: MessageEvent) => {
  const port = event.ports[0]
  if (!port) return
  ports.add(port)
  port.start()
  if (following) return
  following = true
  followChangeStream((change: ServerChangeEvent) => {
    for (const each of ports) each.postMessage(change)
  })
}
