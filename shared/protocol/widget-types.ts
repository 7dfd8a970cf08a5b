/** The public types of CallingExtensions: options, event handlers, outgoing envelopes. */
import type { HandledType, HandlerNameOf, HostToWidgetMessage, MessageOf, Payload } from './catalogue.ts'

type Handler<T extends HandledType> = (data: Payload<T>, message: MessageOf<T>) => void

/** eventHandlers, typed from the catalogue; every handler is called as (data, rawMessage). */
export type EventHandlers = {
  [K in HandledType as HandlerNameOf<K>]?: Handler<K>
} & {
  /** Literal `FAILED` key: called for every valid `*_FAILED` message before its own handler. */
  FAILED?: (data: unknown, message: HostToWidgetMessage) => void
  /** Valid known messages whose own handler is missing. */
  defaultEventHandler?: (data: unknown, message: HostToWidgetMessage) => void
}

export interface CallingExtensionsOptions {
  /**
   * true: every message sent and received is logged with console.log, and so are the
   * noteworthy events. false (default): no per-message logs; noteworthy events (the
   * handshake, the queue flush, dropped or invalid messages) go to console.debug.
   * Echoed in SYNC_ACK.
   */
  debugMode?: boolean
  eventHandlers: EventHandlers
  /** When given, SYNC (and SET_WIDGET_URL retargeting) is accepted only for these origins. */
  hostOrigins?: string[]
}

/** What sendMessage() accepts: any typed envelope, passed through unchanged. */
export interface OutgoingMessage {
  type: string
  data?: unknown
  messageId?: string | number
  [key: string]: unknown
}
