/**
 * What a product page's response headers must say (emulator/node/pages/page-policy.ts
 * builds them): the checks of emulator/node/test/pages.test.ts and the page scanner.
 * Returns the problems, one sentence each; none is a pass.
 */
import type { ProductPage } from '../../emulator/node/pages/page-policy.ts'

function directive(csp: string, name: string): string | null {
  const match = new RegExp(`(?:^|;)\\s*${name}\\s+([^;]*)`).exec(csp)
  return match ? match[1]!.trim() : null
}

/** `headers` by lower-case name; `allowedAncestors` are the origins that may frame a page other than the consent page. */
export function policyProblems(headers: Readonly<Record<string, string>>, page: ProductPage, allowedAncestors: readonly string[]): string[] {
  const problems: string[] = []
  const csp = headers['content-security-policy'] ?? ''
  if (!csp) return ['no Content-Security-Policy header']
  const scripts = directive(csp, 'script-src') ?? directive(csp, 'default-src') ?? ''
  if (!scripts) problems.push('no script-src or default-src')
  if (/'unsafe-inline'|'unsafe-eval'|(^|\s)(\*|https?:|data:|blob:)(\s|$)/.test(scripts)) problems.push(`script-src allows more than the origin and hashes: ${scripts}`)
  if (directive(csp, 'object-src') !== "'none'") problems.push(`object-src is ${directive(csp, 'object-src')}, not 'none'`)
  if (directive(csp, 'base-uri') !== "'none'") problems.push(`base-uri is ${directive(csp, 'base-uri')}, not 'none'`)
  const ancestors = (directive(csp, 'frame-ancestors') ?? '').split(/\s+/).filter(Boolean)
  const frameOptions = (headers['x-frame-options'] ?? '').toUpperCase()
  if (page.framing === 'none') {
    if (ancestors.join(' ') !== "'none'") problems.push(`frame-ancestors is ${ancestors.join(' ') || '(missing)'}, not 'none'`)
    if (frameOptions !== 'DENY') problems.push(`X-Frame-Options is ${frameOptions || '(missing)'}, not DENY`)
  } else {
    if (ancestors.length === 0) problems.push('no frame-ancestors')
    const foreign = ancestors.filter((source) => source !== "'self'" && !allowedAncestors.includes(source))
    if (foreign.length > 0) problems.push(`frame-ancestors allows ${foreign.join(' ')}`)
    if (frameOptions !== 'SAMEORIGIN' && frameOptions !== 'DENY') problems.push(`X-Frame-Options is ${frameOptions || '(missing)'}`)
  }
  if (!headers['referrer-policy']) problems.push('no Referrer-Policy')
  if (headers['x-content-type-options'] !== 'nosniff') problems.push('no X-Content-Type-Options: nosniff')
  return problems
}
