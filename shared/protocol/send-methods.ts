/**
 * The typed send methods of both API classes, generated from the catalogue: each
 * entry's `method` (CallingExtensions) or `hostMethod` (CallingHost) becomes a method
 * that sends that entry's type. Adding a type to the catalogue adds its method.
 */
import { CATALOGUE, getEntry, type HostSendableType, type MessageType, type Payload } from './catalogue.ts'
import type { WireMessage } from './transport.ts'

type Catalogue = typeof CATALOGUE

/** `(data)` when the payload is required, `(data?)` when it may be absent. */
export type DataArg<T extends MessageType> = undefined extends Payload<T> ? [data?: Payload<T>] : [data: Payload<T>]

type MethodOf<T extends MessageType> = Catalogue[T] extends { method: infer M extends string } ? M : never
type HostMethodOf<T extends MessageType> = Catalogue[T] extends { hostMethod: infer M extends string } ? M : never
type WidgetSentType = { [K in MessageType]: MethodOf<K> extends never ? never : K }[MessageType]

/** CallingExtensions' send methods (initialized, outgoingCall, callEnded, …), as the npm package names them. */
export type WidgetSendMethods = { [K in WidgetSentType as MethodOf<K>]: (...args: DataArg<K>) => void }
/** CallingHost's send methods (dialNumber, createEngagementSucceeded, …); each returns the messageId. */
export type HostSendMethods = { [K in HostSendableType as HostMethodOf<K>]: (...args: DataArg<K>) => string }

const defined = new WeakSet<object>()

/**
 * Defines one method per catalogue entry that names one (`key`) on `proto`: the function
 * `methodFor(type)` returns for that entry's type, once per prototype. Methods are
 * non-enumerable, like class methods. A caller may define them on first construction rather
 * than at module load: a module with no top-level call is dropped from a bundle that never
 * uses it (the host side from a widget-only bundle).
 */
export function defineSendMethods<Self>(
  proto: object,
  key: 'method' | 'hostMethod',
  methodFor: (type: string) => (this: Self, data?: unknown) => unknown,
): void {
  if (defined.has(proto)) return
  defined.add(proto)
  for (const entry of Object.values(CATALOGUE)) {
    const name = (entry as { method?: string; hostMethod?: string })[key]
    if (name === undefined) continue
    Object.defineProperty(proto, name, { configurable: true, writable: true, enumerable: false, value: methodFor(entry.type) })
  }
}

/**
 * The envelope a send method posts, as the npm package builds it: `{type, messageId}` for
 * a type without data, else `{type, data, messageId}`.
 */
export function envelope(type: string, data: unknown, messageId: string): WireMessage {
  return getEntry(type)?.hasData === false ? { type, messageId } : { type, data, messageId }
}

/**
 * The envelope of CallingHost.send: as envelope(), plus a top-level `iFrameUrl` on
 * SET_WIDGET_URL, the only place the npm widget (0.9.7) reads it (ours reads either).
 */
export function hostEnvelope(type: string, data: unknown, messageId: string): WireMessage {
  const message = envelope(type, data, messageId)
  if (type === 'SET_WIDGET_URL' && typeof data === 'object' && data !== null && 'iFrameUrl' in data) message.iFrameUrl = data.iFrameUrl
  return message
}
