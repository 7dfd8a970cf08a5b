/**
 * Test support for driving the SDK inside jsdom: other frames are real jsdom windows
 * (iframes) whose postMessage is captured, and inbound traffic is a MessageEvent with
 * the chosen origin and source dispatched on `window`.
 */
import { vi } from 'vitest'

export const HOST_ORIGIN = 'https://app.crm.test'
export const WIDGET_ORIGIN = 'https://widget.test'
export const WIDGET_SRC = `${WIDGET_ORIGIN}/calling/index.html`

export interface Post {
  message: unknown
  targetOrigin: string
}

/** Captures every postMessage made to `win`. */
export function capturePosts(win: Window): Post[] {
  const posts: Post[] = []
  const capture = (message: unknown, targetOrigin?: unknown): void => {
    posts.push({ message, targetOrigin: String(targetOrigin) })
  }
  vi.spyOn(win, 'postMessage').mockImplementation(capture as Window['postMessage'])
  return posts
}

/** A second window (an attached iframe's) with captured posts. */
export function createFrameWindow(): { win: Window; posts: Post[]; frame: HTMLIFrameElement } {
  const frame = document.createElement('iframe')
  document.body.appendChild(frame)
  const win = frame.contentWindow
  if (!win) throw new Error('jsdom gave the iframe no window')
  return { win, posts: capturePosts(win), frame }
}

/** Makes `window.parent` a separate captured window, as inside a real iframe. */
export function stubParentWindow(): { parent: Window; posts: Post[]; frame: HTMLIFrameElement } {
  const { win, posts, frame } = createFrameWindow()
  vi.spyOn(window, 'parent', 'get').mockReturnValue(win)
  return { parent: win, posts, frame }
}

/** Dispatches a message event on this window. */
export function deliver(data: unknown, origin: string, source: MessageEventSource | null): void {
  window.dispatchEvent(new MessageEvent('message', { data, origin, source }))
}

/** The `message` of each post whose message has the given type. */
export function postedOfType(posts: Post[], type: string): Record<string, unknown>[] {
  return posts
    .map((p) => p.message)
    .filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null && (m as { type?: unknown }).type === type)
}

export function postedTypes(posts: Post[]): unknown[] {
  return posts.map((p) => (p.message as { type?: unknown }).type)
}
