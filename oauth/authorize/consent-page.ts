/**
 * The OAuth consent page (/oauth/authorize), standing in for the CRM's own
 * "connect app" screen. It connects to the emulated CRM first (the server,
 * or MSW in browser-only mode; see connect.ts), then asks it
 * about the request and shows: the app, the account, the scopes (required
 * ones ticked and fixed, optional ones to tick), Grant and Deny. A decision
 * sends the browser to redirect_uri with `code`+`state` or
 * `error=access_denied`+`state`; an invalid request shows the error and goes
 * nowhere. Everything is built with DOM calls and textContent: no HTML strings.
 */
import { connectCrm } from '../../emulator/browser/connect.ts'
import { requireSafeUrl } from '../../shared/url/safe-url.ts'
import { ConsentError, fetchConsent, readAuthorizeParams, sendDecision, SCOPE_DESCRIPTIONS, type Consent } from './consent.ts'

const root = document.querySelector('#consent') as HTMLElement

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props)
  node.append(...children)
  return node
}

function showError(message: string): void {
  root.replaceChildren(
    el('h1', {}, 'This authorization request cannot be completed'),
    el('p', { className: 'error', role: 'alert' } as Partial<HTMLParagraphElement>, message),
    el('p', { className: 'muted' }, 'Check the client_id, redirect_uri and scope parameters of the link that brought you here.'),
  )
}

function scopeRow(scope: string, required: boolean): HTMLLabelElement {
  const box = el('input', { type: 'checkbox', name: 'scope', value: scope, checked: required, disabled: required })
  const description = SCOPE_DESCRIPTIONS[scope] ?? scope
  return el('label', { className: 'scope' }, box, el('span', {}, `${description}${required ? ' (required)' : ''} `, el('code', {}, scope)))
}

function render(consent: Consent, onDecision: (decision: 'grant' | 'deny', granted: string[]) => Promise<void>): void {
  const scopes = el(
    'fieldset',
    {},
    el('legend', {}, 'Requested permissions'),
    ...consent.requiredScopes.map((s) => scopeRow(s, true)),
    ...consent.optionalScopes.map((s) => scopeRow(s, false)),
  )
  const status = el('p', { className: 'error', role: 'alert', hidden: true } as Partial<HTMLParagraphElement>)
  const grant = el('button', { type: 'button', className: 'primary' }, 'Grant access')
  const deny = el('button', { type: 'button' }, 'Deny')
  const decide = (decision: 'grant' | 'deny') => async () => {
    grant.disabled = true
    deny.disabled = true
    const granted = [...scopes.querySelectorAll<HTMLInputElement>('input[name="scope"]')].filter((box) => box.checked).map((box) => box.value)
    try {
      await onDecision(decision, granted)
    } catch (error) {
      status.textContent = error instanceof Error ? error.message : String(error)
      status.hidden = false
      grant.disabled = false
      deny.disabled = false
    }
  }
  grant.addEventListener('click', decide('grant'))
  deny.addEventListener('click', decide('deny'))
  const redirect = new URL(consent.redirectUri)

  root.replaceChildren(
    el('h1', {}, `Connect ${consent.app.name}`),
    el('p', {}, `${consent.app.name} wants access to the account `, el('strong', {}, consent.account.hubDomain), ` (hub ${consent.account.hubId}).`),
    el('p', { className: 'muted' }, `Signed in as ${consent.account.userEmail}.${consent.alreadyInstalled ? ' The app is already installed; granting adds to its access.' : ''}`),
    scopes,
    el('p', { className: 'muted' }, `After your decision you will be sent to ${redirect.origin}${redirect.pathname}.`),
    status,
    el('div', { className: 'actions' }, deny, grant),
  )
}

/** Connect to the emulated CRM, then show the request (or why it cannot proceed). */
export async function start(): Promise<void> {
  const crm = await connectCrm({ onWait: (sentence) => root.replaceChildren(el('p', { role: 'status' } as Partial<HTMLParagraphElement>, sentence)) })
  const params = readAuthorizeParams(location.search)
  let consent: Consent
  try {
    consent = await fetchConsent(params)
  } catch (error) {
    showError(error instanceof ConsentError ? error.message : `The emulated CRM could not be reached: ${String(error)}`)
    return
  }
  render(consent, async (decision, granted) => {
    const target = await sendDecision(params, decision, granted)
    // The code must be saved before this page goes away: the app's page restores it.
    await crm.settled()
    location.assign(requireSafeUrl(target, 'The redirect URL'))
  })
}

/** Shown when the page itself fails to start (e.g. the service worker cannot register). */
export function showStartupError(error: unknown): void {
  showError(`The consent page failed to start: ${error instanceof Error ? error.message : String(error)}`)
}
