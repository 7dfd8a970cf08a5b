import { BroadcastChannel } from 'node:worker_threads'
import type { ChannelPort } from '../window-protocol.ts'

/**
 * Test support: Node BroadcastChannels of one name, as the links' ports (each `channel()` is another page of the
 * origin), all closed after each test; `settle` lets their messages arrive.
 */
export function nodeChannels(name: string): { channel(): ChannelPort; settle(): Promise<unknown> } {
  const opened: ChannelPort[] = []
  afterEach(() => {
    for (const port of opened.splice(0)) port.close()
  })
  return {
    channel: () => {
      const port = new BroadcastChannel(name) as unknown as ChannelPort
      opened.push(port)
      return port
    },
    settle: () => new Promise((resolve) => setTimeout(resolve, 30)),
  }
}
