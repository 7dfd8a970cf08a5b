/**
 * Ringside's pages, and the policy each one is served with. The one home of
 * both facts: the build (vite.config.ts, vite.widget.config.ts, the static
 * host's headers file), the server (Vite dev and --dist, `ringside start`)
 * and the tests read them from here.
 *
 * Only these pages are documents on Ringside's origins; anything else the
 * page servers would answer with HTML is refused (emulator/node/pages/documents.ts).
 *
 * Each page's policy (https://www.w3.org/TR/CSP3/):
 * - scripts from the page's own origin only; an inline script only by its
 *   SHA-256 hash (Vite's dev server injects the React refresh preamble);
 * - `object-src 'none'`, `base-uri 'none'`;
 * - framing: the consent page never (`frame-ancestors 'none'`, X-Frame-Options
 *   DENY: a Grant must not be clickjacked); the others only by Ringside's own
 *   origins (the harness frames the widget from the other port) and the
 *   origins the operator adds with --frame-ancestor. Browsers that know
 *   frame-ancestors ignore X-Frame-Options (CSP3 §6.4.2), which is kept as
 *   SAMEORIGIN for older ones;
 * - Referrer-Policy `same-origin`: widget and record URLs are not sent to
 *   other sites.
 */
import { createHash } from 'node:crypto'

export type Framing = 'none' | 'own'

export interface ProductPage {
  /** The build's entry name. */
  readonly name: string
  /** The HTML file, relative to the repository (and to dist/ in a build). */
  readonly file: string
  /** Where the page is served: a directory path ending in `/`. */
  readonly path: string
  readonly framing: Framing
  /** Which Vite config builds it: the main one, or vite.widget.config.ts (the widget runs on preact/compat). */
  readonly build: 'main' | 'widget'
  /** Directives besides the common ones (see COMMON). */
  readonly directives: Readonly<Record<string, string>>
}

/** What every page allows; each page adds or overrides below. */
const COMMON: Readonly<Record<string, string>> = {
  'default-src': "'self'",
  'script-src': "'self'",
  // React's `style` attributes and Vite's injected <style> elements.
  'style-src': "'self' 'unsafe-inline'",
  'img-src': "'self' data: blob:",
  'font-src': "'self'",
  'connect-src': "'self'",
  'worker-src': "'self'",
  'frame-src': "'none'",
  'object-src': "'none'",
  'base-uri': "'none'",
  'form-action': "'self'",
}

/**
 * The schemes a softphone widget dials through: click-to-call widgets navigate their own frame to
 * `tel:…` (or `sip:`, `sips:`, `callto:`) so that the operating system's phone app places the call; the
 * browser hands the URL over and the frame stays as it was. CSP's frame-src governs those navigations too, so
 * without them the browser replaces the widget with an error page, which the CRM page does not do.
 */
export const DIAL_SCHEMES = ['tel:', 'sip:', 'sips:', 'callto:'] as const

/** Ringside's product pages; the order is the build's. */
export const PRODUCT_PAGES: readonly ProductPage[] = [
  // The calling widget and timeline iframes it frames live on any http(s) origin; the widget may dial through a dial scheme.
  { name: 'harness', file: 'index.html', path: '/', framing: 'own', build: 'main', directives: { 'frame-src': ['http:', 'https:', ...DIAL_SCHEMES].join(' ') } },
  { name: 'oauth', file: 'oauth/authorize/index.html', path: '/oauth/authorize/', framing: 'none', build: 'main', directives: {} },
  { name: 'widget', file: 'widget/index.html', path: '/widget/', framing: 'own', build: 'widget', directives: {} },
]

/** The product page served at `pathname` (`/widget/`, `/widget` or `/widget/index.html`), or null. */
export function pageAt(pathname: string): ProductPage | null {
  return PRODUCT_PAGES.find((page) => pathname === page.path || pathname === page.path.slice(0, -1) || pathname === `/${page.file}`) ?? null
}

/** SHA-256 sources (`'sha256-…'`) of the inline `<script>` elements of an HTML document. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = []
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const [, attributes = '', body = ''] = match
    if (/\bsrc\s*=/i.test(attributes) || body === '') continue
    hashes.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`)
  }
  return [...new Set(hashes)]
}

export interface PolicyContext {
  /** Ringside's own origins (the harness and widget ports on the host asked for), and --frame-ancestor origins. */
  frameAncestors: readonly string[]
  /** Hashes of the page's inline scripts (inlineScriptHashes). */
  scriptHashes?: readonly string[]
}

/** The page's Content-Security-Policy. */
export function contentSecurityPolicy(page: ProductPage, context: PolicyContext): string {
  const directives: Record<string, string> = { ...COMMON, ...page.directives }
  if (context.scriptHashes && context.scriptHashes.length > 0) directives['script-src'] = `${directives['script-src']} ${context.scriptHashes.join(' ')}`
  directives['frame-ancestors'] = page.framing === 'none' ? "'none'" : ["'self'", ...context.frameAncestors].join(' ')
  return Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join('; ')
}

/** Every response header of the page's policy. */
export function pageHeaders(page: ProductPage, context: PolicyContext): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(page, context),
    'x-frame-options': page.framing === 'none' ? 'DENY' : 'SAMEORIGIN',
    'referrer-policy': 'same-origin',
    'x-content-type-options': 'nosniff',
  }
}

/** Ringside's own origins on `hostname`: the harness port and the widget origin (the next one). */
export function ownOrigins(protocol: string, hostname: string, harnessPort: number): string[] {
  const host = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname
  return [`${protocol}//${host}:${harnessPort}`, `${protocol}//${host}:${harnessPort + 1}`]
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase()
}

/** HTML: served only as a product page. */
export function isDocumentType(contentType: string | undefined): boolean {
  const type = mediaType(contentType)
  return type === 'text/html' || type === 'application/xhtml+xml'
}

/** Other media types a browser renders as a document that can run script when navigated to (SVG, XML). */
export function isScriptableResource(contentType: string | undefined): boolean {
  const type = mediaType(contentType)
  return type === 'image/svg+xml' || type === 'text/xml' || type === 'application/xml' || type.endsWith('+xml')
}

/** The policy of an SVG or XML file (an icon, a source): navigated to, nothing in it runs. */
export const RESOURCE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; sandbox"
