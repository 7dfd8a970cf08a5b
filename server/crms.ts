/**
 * Which database a request uses. Normally there is one: the main CRM, kept on
 * disk. With sandboxes on (`--sandboxes`, for test suites that run in
 * parallel), each browser profile gets a fresh in-memory CRM of its own, as
 * each profile got its own database in browser-only mode:
 *
 * - a page response to a browser that has no `ringside_sandbox` cookie sets
 *   one to a new random name, so every page, tab and frame of that profile
 *   (harness, consent page, fixtures, on every port of this host) shares it;
 * - an API request names its sandbox by that cookie or by the
 *   `x-ringside-sandbox` header; one that names none, or `main`, uses the
 *   main CRM (a backend, curl, a test that wants the shared database).
 *
 * Sandboxes are never written to disk; the least recently used are dropped
 * beyond SANDBOX_LIMIT.
 */
import { createCrmService, type CrmService, type CrmServiceOptions } from '../shared/api/service.ts'

export const SANDBOX_COOKIE = 'ringside_sandbox'
export const SANDBOX_HEADER = 'x-ringside-sandbox'
export const MAIN_SANDBOX = 'main'
const SANDBOX_LIMIT = 64
const SANDBOX_NAME = /^[A-Za-z0-9_-]{1,64}$/

export interface CrmRef {
  service: CrmService
  /** null for the main CRM. */
  sandbox: string | null
}

export class CrmRegistry {
  readonly main: CrmService
  readonly sandboxesEnabled: boolean
  readonly #options: CrmServiceOptions
  readonly #sandboxes = new Map<string, CrmService>()

  constructor(main: CrmService, options: { sandboxes: boolean; serviceOptions: CrmServiceOptions }) {
    this.main = main
    this.sandboxesEnabled = options.sandboxes
    this.#options = options.serviceOptions
  }

  /** The CRM a request uses, given its sandbox header and sandbox cookie. */
  resolve(sandboxHeader: string | undefined, sandboxCookie: string | undefined): CrmRef {
    if (!this.sandboxesEnabled) return { service: this.main, sandbox: null }
    const name = sandboxHeader?.trim() || sandboxCookie
    if (!name || name === MAIN_SANDBOX || !SANDBOX_NAME.test(name)) return { service: this.main, sandbox: null }
    let service = this.#sandboxes.get(name)
    if (service) {
      // Most recently used last.
      this.#sandboxes.delete(name)
    } else {
      service = createCrmService(this.#options)
      if (this.#sandboxes.size >= SANDBOX_LIMIT) {
        const oldest = this.#sandboxes.keys().next().value
        if (oldest !== undefined) this.#sandboxes.delete(oldest)
      }
    }
    this.#sandboxes.set(name, service)
    return { service, sandbox: name }
  }

  /** A new sandbox name for a browser that has none. */
  newSandboxName(): string {
    return crypto.randomUUID()
  }
}
