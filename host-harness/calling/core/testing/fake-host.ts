/**
 * Test support: a stand-in for CallingHost with the methods the controller
 * uses. `emit` plays a widget message; `sent` records every host method call.
 */
import { judgeWidgetMessage, type FromWidgetType, type HostEventName, type HostEvents, type MessageOf, type Payload } from '../../../../shared/protocol/index.ts'
import type { HostPort } from '../ports.ts'

export interface SentMessage {
  method: string
  data: unknown
  messageId: string
}

type AnyListener = (...args: unknown[]) => void

export class FakeHost implements HostPort {
  readonly sent: SentMessage[] = []
  readonly sizes: Array<[number | string, number | string]> = []
  readonly srcs: string[] = []
  #listeners = new Map<string, Set<AnyListener>>()
  #next = 0

  on<E extends HostEventName>(event: E, listener: HostEvents[E]): () => void {
    const set = this.#listeners.get(event) ?? new Set<AnyListener>()
    set.add(listener as unknown as AnyListener)
    this.#listeners.set(event, set)
    return () => set.delete(listener as unknown as AnyListener)
  }

  /** Plays a widget → host message; returns it (the object handlers receive). */
  emit<T extends FromWidgetType>(type: T, data?: Payload<T>, extra: Record<string, unknown> = {}): MessageOf<T> {
    this.#next += 1
    const message = { type, messageId: `w_${this.#next}`, ...(data === undefined ? {} : { data }), ...extra } as unknown as MessageOf<T>
    for (const listener of this.#listeners.get(type) ?? []) listener(data, message)
    return message
  }

  /**
   * Plays a message exactly as a widget posts it, judged as CallingHost judges it:
   * listeners get the message the host acts on, or `ignored` fires. Returns the judgement.
   */
  post(raw: Record<string, unknown>): ReturnType<typeof judgeWidgetMessage> {
    this.#next += 1
    const message = { messageId: `w_${this.#next}`, ...raw }
    const judgement = judgeWidgetMessage(message)
    if (judgement.act) {
      const accepted = judgement.message as { data?: unknown }
      for (const listener of this.#listeners.get(judgement.type) ?? []) listener(accepted.data, accepted)
    } else {
      for (const listener of this.#listeners.get('ignored') ?? []) listener({ type: judgement.type, reason: judgement.reason, data: message, deviations: judgement.deviations })
    }
    return judgement
  }

  listenerCount(): number {
    let n = 0
    for (const set of this.#listeners.values()) n += set.size
    return n
  }

  /** The data of every message sent by `method`, in order. */
  sentBy(method: string): unknown[] {
    return this.sent.filter((m) => m.method === method).map((m) => m.data)
  }

  #record(method: string, data: unknown): string {
    this.#next += 1
    const messageId = `host_${this.#next}`
    this.sent.push({ method, data, messageId })
    return messageId
  }

  dialNumber = (data: Payload<'DIAL_NUMBER'>) => this.#record('dialNumber', data)
  createEngagementSucceeded = (data: Payload<'CREATE_ENGAGEMENT_SUCCEEDED'>) => this.#record('createEngagementSucceeded', data)
  createEngagementFailed = (data: Payload<'CREATE_ENGAGEMENT_FAILED'>) => this.#record('createEngagementFailed', data)
  engagementCreated = (data: Payload<'ENGAGEMENT_CREATED'>) => this.#record('engagementCreated', data)
  updateEngagementSucceeded = (data: Payload<'UPDATE_ENGAGEMENT_SUCCEEDED'>) => this.#record('updateEngagementSucceeded', data)
  updateEngagementFailed = (data: Payload<'UPDATE_ENGAGEMENT_FAILED'>) => this.#record('updateEngagementFailed', data)
  callerIdMatchSucceeded = (data: Payload<'CALLER_ID_MATCH_SUCCEEDED'>) => this.#record('callerIdMatchSucceeded', data)
  callerIdMatchFailed = (data?: Payload<'CALLER_ID_MATCH_FAILED'>) => this.#record('callerIdMatchFailed', data)
  navigateToRecordFailed = (data?: Payload<'NAVIGATE_TO_RECORD_FAILED'>) => this.#record('navigateToRecordFailed', data)
  finalizeEngagementSucceeded = (data?: Payload<'FINALIZE_ENGAGEMENT_SUCCEEDED'>) => this.#record('finalizeEngagementSucceeded', data)
  finalizeEngagementFailed = (data?: Payload<'FINALIZE_ENGAGEMENT_FAILED'>) => this.#record('finalizeEngagementFailed', data)
  publishToChannelSucceeded = (data?: Payload<'PUBLISH_TO_CHANNEL_SUCCEEDED'>) => this.#record('publishToChannelSucceeded', data)
  publishToChannelFailed = (data?: Payload<'PUBLISH_TO_CHANNEL_FAILED'>) => this.#record('publishToChannelFailed', data)
  setWidgetUrlFailed = (data?: Payload<'SET_WIDGET_URL_FAILED'>) => this.#record('setWidgetUrlFailed', data)
  visibilityChanged = (data: Payload<'VISIBILITY_CHANGED'>) => this.#record('visibilityChanged', data)
  resize = (width: number | string, height: number | string) => {
    this.sizes.push([width, height])
  }
  setSrc = (url: string) => {
    this.srcs.push(url)
  }
}
