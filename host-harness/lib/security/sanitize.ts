/**
 * The harness's one door for untrusted HTML and URLs.
 *
 * Everything a calling app or a timeline template controls (rendered
 * templates, tokens, extraData, call notes) passes through `sanitizeHtml`
 * before React puts it in the DOM; every URL the harness follows or frames
 * (recording links, timelineIFrame, widget URLs, links in that HTML) passes
 * shared/url/safe-url.ts, the one rule for outside URLs. The page's
 * Content-Security-Policy (emulator/node/pages/page-policy.ts)
 * is the second line, not the first.
 */
import DOMPurify, { type Config } from 'dompurify'
import { safeUrl } from '../../../shared/url/safe-url.ts'
import { renameEventHandlerAttributes } from './event-attributes.ts'

/** Tags removed on top of DOMPurify's HTML profile: nothing interactive, no nested documents, no styles. */
const FORBIDDEN_TAGS = [
  'style',
  'link',
  'meta',
  'base',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'option',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'template',
  'dialog',
  'details',
  'video',
  'audio',
  'source',
  'track',
  'picture',
]

/** Attributes removed everywhere: inline styles (UI redress), ids and names (DOM clobbering), forms. */
const FORBIDDEN_ATTRIBUTES = ['style', 'id', 'name', 'form', 'formaction', 'action', 'srcset', 'ping', 'background']

/** Images may only be inline raster data: no remote fetches (tracking, CSP reports), no SVG documents. */
const SAFE_IMAGE_DATA_URL = /^data:image\/(?:png|jpeg|gif|webp);base64,[a-z0-9+/=\s]+$/i

const CONFIG: Config = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: FORBIDDEN_TAGS,
  FORBID_ATTR: FORBIDDEN_ATTRIBUTES,
  // Links: http(s) only. (Image data URLs are checked by the hook below.)
  ALLOWED_URI_REGEXP: /^https?:\/\//i,
  ALLOW_DATA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  SAFE_FOR_TEMPLATES: false,
  RETURN_TRUSTED_TYPE: false,
}

let purifier: ReturnType<typeof DOMPurify> | undefined

function getPurifier(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier
  const instance = DOMPurify(window)
  instance.addHook('afterSanitizeAttributes', (node) => {
    if (!(node instanceof Element)) return
    const tag = node.tagName.toLowerCase()
    if (tag === 'a') {
      const href = node.getAttribute('href')
      if (href !== null && safeUrl(href) === undefined) node.removeAttribute('href')
      if (node.hasAttribute('href')) {
        node.setAttribute('target', '_blank')
        node.setAttribute('rel', 'noopener noreferrer')
      } else {
        node.removeAttribute('target')
        node.removeAttribute('rel')
      }
    }
    if (tag === 'img') {
      const src = node.getAttribute('src')
      if (src === null || !SAFE_IMAGE_DATA_URL.test(src)) node.removeAttribute('src')
    }
  })
  purifier = instance
  return instance
}

/**
 * Sanitize untrusted HTML for `dangerouslySetInnerHTML`: no scripts, no event
 * handlers, no styles, no forms or frames, links http(s) only (opening in a
 * new tab with rel=noopener), images only as inline raster data.
 */
export function sanitizeHtml(dirty: string): string {
  // Renaming first keeps the parse from reporting CSP violations (see event-attributes.ts).
  return getPurifier().sanitize(renameEventHandlerAttributes(dirty), CONFIG)
}
