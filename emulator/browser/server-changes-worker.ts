/**
 * SharedWorker of server mode: one change-stream connection for every page
 * of this origin (see connect.ts), each stream event passed to every page.
 */
import { shareChangeStream } from './server-changes-share.ts'
import { followChangeStream } from './server-changes.ts'

declare const self: { onconnect: ((event: MessageEvent) => void) | null }

const share = shareChangeStream(followChangeStream)

self.onconnect = (event: MessageEvent) => {
  const port = event.ports[0]
  if (!port) return
  port.start()
  share.add(port)
}
