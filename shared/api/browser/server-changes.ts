/**
 * Following server mode's change stream (GET /_ringside/v1/changes,
 * Server-Sent Events): every committed write arrives as a message whose data
 * is `{"tables": [...]}`. EventSource reconnects by itself after the
 * connection drops (the server asks for `retry: 1000`); if the browser gives
 * up (the stream answered with an error), a new one is opened after a pause.
 * Each connection starts with a `ready` event listing every table; after a
 * reconnect the follower may have missed changes, so it reports that every
 * table changed.
 */
import { SERVER_PATHS } from '../api-paths.ts'
import type { CrmChangeEvent } from './msw.ts'

export function followChangeStream(emit: (event: CrmChangeEvent) => void, url: string = SERVER_PATHS.changes): () => void {
  let connections = 0
  let source: EventSource | undefined
  let retry: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  const open = () => {
    const current = new EventSource(url)
    source = current
    current.addEventListener('ready', (message) => {
      if (connections++ === 0) return
      emit({ tables: parseTables((message as MessageEvent<string>).data) ?? [] })
    })
    current.addEventListener('message', (message) => {
      const tables = parseTables(message.data as string)
      if (tables) emit({ tables })
    })
    current.addEventListener('error', () => {
      if (current.readyState === EventSource.CLOSED && !stopped) retry = setTimeout(open, 2000)
    })
  }
  open()
  return () => {
    stopped = true
    if (retry !== undefined) clearTimeout(retry)
    source?.close()
  }
}

function parseTables(data: string): string[] | undefined {
  try {
    const tables = (JSON.parse(data) as { tables?: unknown }).tables
    return Array.isArray(tables) && tables.every((t) => typeof t === 'string') ? tables : undefined
  } catch {
    return undefined
  }
}
