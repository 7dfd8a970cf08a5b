/**
 * The wire format of server mode's change stream (GET /_ringside/v1/changes,
 * Server-Sent Events), written by the server and read by pages.
 *
 * A stream counts the commits of one database from the moment the server
 * started: its `epoch` names that run (a restart starts a new epoch, with
 * `seq` back at 0) and `seq` is the number of the newest commit. Every
 * connection opens with a `ready` event saying where the stream stands; each
 * commit then arrives as a plain message with its `seq`. GET
 * /_ringside/v1/server tells the same position (`changePosition`), so a page
 * that read it before loading its data knows whether the stream's first
 * `ready` is ahead of what it loaded.
 */

/** Where a change stream stands: `seq` commits into run `epoch` of its database. */
export interface ChangePosition {
  epoch: string
  seq: number
}

/** The `ready` event: the stream is live at `epoch`/`seq`; `tables` lists every table. */
export interface ReadyEvent extends ChangePosition {
  mode: 'server'
  tables: string[]
}

/** A commit: the tables it touched, its number, and the client whose request made it (when the request named one). */
export interface ChangeMessage {
  tables: string[]
  seq: number
  client?: string
}

export const READY_EVENT = 'ready'

/** The stream asks browsers to reconnect this long after it drops (a restart). */
export const RECONNECT_MS = 1000

/** One SSE frame (the data is one line of JSON, so one `data:` field). */
function frame(fields: { event?: string; id: string; retry?: number }, data: object): string {
  const json = JSON.stringify(data)
  return `${fields.event ? `event: ${fields.event}\n` : ''}id: ${fields.id}\n${fields.retry ? `retry: ${fields.retry}\n` : ''}data: ${json}\n\n`
}

const idOf = ({ epoch, seq }: ChangePosition) => `${epoch}:${seq}`

export function readyFrame(position: ChangePosition, tables: readonly string[]): string {
  const event: ReadyEvent = { mode: 'server', epoch: position.epoch, seq: position.seq, tables: [...tables] }
  return frame({ event: READY_EVENT, id: idOf(position), retry: RECONNECT_MS }, event)
}

export function changeFrame(epoch: string, change: ChangeMessage): string {
  const message: ChangeMessage = { tables: change.tables, seq: change.seq, ...(change.client !== undefined && { client: change.client }) }
  return frame({ id: idOf({ epoch, seq: change.seq }) }, message)
}

const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((t) => typeof t === 'string')
const isSeq = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0

function parseJson(data: unknown): Record<string, unknown> | undefined {
  if (typeof data !== 'string') return undefined
  try {
    const value: unknown = JSON.parse(data)
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/** A position as GET /_ringside/v1/server or a `ready` event gives it; undefined when malformed. */
export function parsePosition(value: unknown): ChangePosition | undefined {
  if (value === null || typeof value !== 'object') return undefined
  const { epoch, seq } = value as Record<string, unknown>
  return typeof epoch === 'string' && epoch !== '' && isSeq(seq) ? { epoch, seq } : undefined
}

export function parseReady(data: unknown): ReadyEvent | undefined {
  const value = parseJson(data)
  const position = parsePosition(value)
  if (!value || !position || !isStringArray(value.tables)) return undefined
  return { mode: 'server', ...position, tables: value.tables }
}

export function parseChange(data: unknown): ChangeMessage | undefined {
  const value = parseJson(data)
  if (!value || !isStringArray(value.tables) || !isSeq(value.seq)) return undefined
  return { tables: value.tables, seq: value.seq, ...(typeof value.client === 'string' && { client: value.client }) }
}
