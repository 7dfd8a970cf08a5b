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

/** A change from the stream; `client` names the page whose request made it, if it named itself. */
export interface ServerChangeEvent extends CrmChangeEvent {
  client?: string
}

export function followChangeStream(emit: (event: ServerChangeEvent) => void, url: string = SERVER_PATHS.changes): () => void {
  let connections = 0
  let source: EventSource | undefined
  let retry: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  const open = () => {
    const current = new EventSource(url)
    source = current
    current.addEventListener('ready', (message) => {
      if (connections++ === 0) return
      emit({ tables: parseChange((message as MessageEvent<string>).data)?.tables ?? [] })
    })
    current.addEventListener('message', (message) => {
      const change = parseChange(message.data as string)
      if (change) emit(change)
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

function parseChange(data: string): ServerChangeEvent | undefined {
  try {
    const { tables, client } = JSON.parse(data) as { tables?: unknown; client?: unknown }
    if (!Array.isArray(tables) || !tables.every((t) => typeof t === 'string')) return undefined
    return { tables, ...(typeof client === 'string' && { client }) }
  } catch {
    return undefined
  }
}
