/**
 * One change-stream follower shared by many pages (the SharedWorker of
 * server-changes-worker.ts). The stream is opened for the first page. A page
 * that joins while the stream is live is first told where it stands (a
 * `ready` at the newest position this follower has passed on): the page
 * compares that with the position it loaded its data at, since commits made
 * before it joined reached only the pages already there.
 */
import type { ReadyEvent } from '../core/data/change-stream.ts'
import type { StreamEvent } from './server-changes.ts'

/** The part of a MessagePort the share uses. */
export interface SharePort {
  postMessage(event: StreamEvent): void
}

export function shareChangeStream(follow: (emit: (event: StreamEvent) => void) => unknown): { add(port: SharePort): void } {
  const ports = new Set<SharePort>()
  /** Where the live connection stands; undefined while it is down (or not yet open). */
  let live: ReadyEvent | undefined
  let following = false
  const emit = (event: StreamEvent) => {
    if (event.type === 'ready') live = { ...event.ready }
    else if (event.type === 'change' && live) live.seq = event.change.seq
    else if (event.type === 'down' || event.type === 'refused') live = undefined
    for (const port of ports) port.postMessage(event)
  }
  return {
    add(port) {
      ports.add(port)
      if (live) port.postMessage({ type: 'ready', ready: { ...live } })
      if (following) return
      following = true
      follow(emit)
    },
  }
}
