/**
 * The modal a timeline event's `timelineIFrame` link opens. The URL must be
 * an absolute http(s) URL (shared/url/safe-url.ts, checked by the caller and again here); the frame
 * is sandboxed without `allow-same-origin`, so even a page served from the
 * harness's own origin cannot reach the harness, its storage or its API.
 */
import { useEffect, useRef } from 'react'
import { checkUrl, safeUrl } from '../../shared/url/safe-url.ts'
import './iframe-modal.css'

export interface IframeModalProps {
  url: string
  title: string
  width?: number
  height?: number
  onClose(): void
}

const clamp = (value: number | undefined, fallback: number, max: number) =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.min(Math.round(value), max) : fallback

export function IframeModal({ url, title, width, height, onClose }: IframeModalProps) {
  const closeRef = useRef<HTMLButtonElement>(null)
  const verdict = checkUrl(url)
  const safe = safeUrl(url)

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null
    closeRef.current?.focus()
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose()
    }
    window.addEventListener('keydown', onKey)
    return () => {
      window.removeEventListener('keydown', onKey)
      previous?.focus()
    }
  }, [onClose])

  const w = clamp(width, 640, Math.max(320, window.innerWidth - 48))
  const h = clamp(height, 480, Math.max(240, window.innerHeight - 120))

  return (
    <div className="modal-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div role="dialog" aria-modal="true" aria-labelledby="iframe-modal-title" className="modal" style={{ width: w + 2 }}>
        <header className="modal-header">
          <h2 id="iframe-modal-title">{title}</h2>
          <button ref={closeRef} type="button" onClick={onClose}>
            Close
          </button>
        </header>
        {safe ? (
          <iframe
            title={title}
            src={safe}
            width={w}
            height={h}
            sandbox="allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox"
            referrerPolicy="no-referrer"
          />
        ) : (
          <p role="alert">This content cannot be shown: its URL {verdict.ok ? '' : verdict.reason}.</p>
        )}
      </div>
    </div>
  )
}
