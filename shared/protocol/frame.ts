/**
 * The widget's iframe, for the host: creation with the attributes the real host
 * uses, its size, its src (http(s) only) and the load/error events that drive the
 * handshake.
 */
import { requireSafeUrl } from '../url/safe-url.ts'

export interface FrameOptions {
  src: string
  width?: number | string
  height?: number | string
  allow?: string
  sandbox?: string
  title?: string
}

export function checkSize(value: unknown, name: string): string {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return String(value)
  if (typeof value === 'string' && /^\d+(\.\d+)?(px|%|vw|vh|em|rem)?$/.test(value.trim())) return value.trim()
  throw new Error(`${name} must be a non-negative number or a CSS length, got ${JSON.stringify(value)}`)
}

export function checkPositive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${String(value)}`)
  return value
}

/** CallingHost's required options (the rest are checked where they are used); returns them. */
export function checkHostOptions<T extends { container: HTMLElement; sync: object }>(options: T): T {
  if (!options || typeof options !== 'object') throw new Error('CallingHost: options are required')
  if (!options.container || typeof options.container.appendChild !== 'function') throw new Error('CallingHost: options.container must be an HTMLElement')
  if (!options.sync || typeof options.sync !== 'object') throw new Error('CallingHost: options.sync is required')
  return options
}

/** An absolute http(s) URL, or a path (`/…`) resolved against the page (shared/url/safe-url.ts's rule), or throws. */
export function requireHttpUrl(url: unknown, what: string): URL {
  const base = typeof document === 'undefined' ? undefined : document.baseURI
  return new URL(requireSafeUrl(url, what, base === undefined ? undefined : { paths: 'any', base }))
}

export class WidgetFrame {
  readonly #options: FrameOptions
  readonly #onLoad: () => void
  readonly #onError: () => void
  #src: string
  #origin: string
  #width: string
  #height: string
  #iframe: HTMLIFrameElement | null = null

  constructor(options: FrameOptions, onLoad: () => void, onError: () => void) {
    const url = requireHttpUrl(options.src, 'CallingHost src')
    this.#options = options
    this.#src = url.href
    this.#origin = url.origin
    this.#width = checkSize(options.width ?? 400, 'width')
    this.#height = checkSize(options.height ?? 600, 'height')
    this.#onLoad = onLoad
    this.#onError = onError
  }

  get iframe(): HTMLIFrameElement | null { return this.#iframe }
  get src(): string { return this.#src }
  /** Origin of the current src. */
  get origin(): string { return this.#origin }

  /** Creates the iframe in `container` (once). */
  mount(container: HTMLElement): HTMLIFrameElement {
    if (this.#iframe) return this.#iframe
    const iframe = document.createElement('iframe')
    iframe.id = 'hubspot-calling-extension-iframe'
    iframe.title = this.#options.title ?? 'Calling widget'
    iframe.setAttribute('allow', this.#options.allow ?? 'microphone; autoplay')
    if (this.#options.sandbox !== undefined) iframe.setAttribute('sandbox', this.#options.sandbox)
    // The browsers' default policy, whatever the page's own: the widget learns the host's origin (never its path),
    // as from the CRM's pages. SDK 0.0.6 takes the host's origin from document.referrer (IFrameManager
    // getDestinationHost) and answers no SYNC from any other; from 0.0.10 it reads SYNC's hostUrl.
    iframe.referrerPolicy = 'strict-origin-when-cross-origin'
    iframe.setAttribute('width', this.#width)
    iframe.setAttribute('height', this.#height)
    iframe.addEventListener('load', this.#onLoad)
    iframe.addEventListener('error', this.#onError)
    // eslint-disable-next-line ringside/url-sink -- #src is only ever set from requireHttpUrl (constructor, setSrc), i.e. requireSafeUrl
    iframe.src = this.#src
    this.#iframe = iframe
    container.appendChild(iframe)
    return iframe
  }

  /** Sets a new http(s) src (throws otherwise); call navigate() to load it. */
  setSrc(url: string): void {
    const parsed = requireHttpUrl(url, 'setSrc')
    this.#src = parsed.href
    this.#origin = parsed.origin
  }

  /** Loads the current src again; false when there is no iframe yet. */
  navigate(): boolean {
    if (!this.#iframe) return false
    // eslint-disable-next-line ringside/url-sink -- #src is only ever set from requireHttpUrl (constructor, setSrc), i.e. requireSafeUrl
    this.#iframe.src = this.#src
    return true
  }

  resize(width: number | string, height: number | string): void {
    this.#width = checkSize(width, 'width')
    this.#height = checkSize(height, 'height')
    this.#iframe?.setAttribute('width', this.#width)
    this.#iframe?.setAttribute('height', this.#height)
  }

  remove(): void {
    if (!this.#iframe) return
    this.#iframe.removeEventListener('load', this.#onLoad)
    this.#iframe.removeEventListener('error', this.#onError)
    this.#iframe.remove()
    this.#iframe = null
  }
}
