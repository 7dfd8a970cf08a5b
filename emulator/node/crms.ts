/**
 * Which database a request uses, in one rule: a request that names a store
 * is served by that store or refused, never by another one.
 *
 * Normally there is one store: the main CRM, kept on disk. With sandboxes on
 * (`--sandboxes`, for test suites that run in parallel), each browser profile
 * gets a fresh in-memory CRM of its own, as each profile got its own database
 * in browser-only mode:
 *
 * - a page response to a browser that has no `ringside_sandbox` cookie this
 *   server minted sets one to a new name, so every page, tab and frame of
 *   that profile (harness, consent page, widget pages, on every port of this
 *   host) shares it;
 * - an API request names its sandbox by the `x-ringside-sandbox` header, else
 *   by that cookie; one that names none, or `main` in the header, uses the
 *   main CRM (a backend, curl, a test that wants the shared database).
 *
 * The cookie is trusted only when this server run minted it. Cookies ignore
 * ports (RFC 6265 §8.5), so a page on another port of this host can set
 * `ringside_sandbox` too, with a longer Path so that the browser sends its
 * pair first (RFC 6265 §5.4). A minted name carries an HMAC of itself under a
 * key drawn at start-up; among the cookie's pairs only one that verifies
 * counts, and `main` never comes from a cookie. A cookie this run did not mint
 * (a forged one, another server's, an earlier run's) names no store: a page
 * gets a fresh minted cookie, and an API request with only such a cookie is
 * refused. A server started without `--sandboxes` ignores the cookie (it may
 * belong to a server on another port); it neither refuses nor clears it.
 *
 * A request is refused, and nothing is changed, when its header names a
 * sandbox that breaks the naming rule (400) or names one on a server started
 * without `--sandboxes` (400), when its only sandbox cookie was not minted by
 * this run (400, or 410 for an earlier run's), when it names a sandbox that
 * was dropped (410), or would create one more than the cap while every
 * sandbox is in use (429).
 *
 * Sandboxes are never written to disk. A sandbox is in use while a request to
 * it is in flight or a page holds its change stream open. At the cap
 * (`--max-sandboxes`), a new sandbox takes the place of the least recently
 * used one not in use; that one is remembered as dropped, so a request that
 * names it later is refused rather than given a fresh, empty CRM; so is a
 * name a page gave a browser in an earlier run of the server (a restart
 * forgets every sandbox). A reset or an import that names a dropped sandbox
 * starts it afresh. A test run may release its sandbox when done
 * (DELETE SANDBOX_RELEASE_PATH), unless it is in use.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { createCrmService, type CrmService, type CrmServiceOptions } from '../core/service.ts'
import { ApiError, Category, validationError } from '../core/http/errors.ts'
import { DEFAULT_MAX_SANDBOXES } from './start-options.ts'

export const SANDBOX_COOKIE = 'ringside_sandbox'
export const SANDBOX_HEADER = 'x-ringside-sandbox'
export const MAIN_SANDBOX = 'main'
const SANDBOX_NAME = /^[A-Za-z0-9_-]{1,64}$/
export const SANDBOX_NAME_RULE =
  'A sandbox name is 1 to 64 characters, each a letter (A-Z, a-z), a digit, "_" or "-" (no dots, spaces or other characters); "main" names the main database.'
/** How many dropped names are remembered (beyond that, the oldest is forgotten and its name may start afresh). */
const REMEMBERED_DROPS = 10_000
/** DELETE here releases the sandbox the request names (a test run done with it). */
export const SANDBOX_RELEASE_PATH = '/_ringside/v1/sandbox'
/** A name a page response gave a browser: "r", the server run's id, a random part, and the HMAC of the rest under the run's key. */
const MINTED = /^(r([0-9a-f]{8})-[0-9a-f]{16})-([0-9a-f]{32})$/
/** Requests that replace a sandbox's data whole, so they may start a dropped one afresh. */
const FRESH_STARTS = new Set(['POST /_ringside/v1/reset', 'POST /_ringside/v1/import'])

export interface CrmRef {
  service: CrmService
  /** null for the main CRM. */
  sandbox: string | null
}

/** What a request says about its store: the header's value (undefined when absent), and every value of the sandbox cookie in send order. */
export interface StoreRequest {
  header: string | undefined
  cookies: string[]
  method: string
  path: string
}

/** A page response's sandbox cookie: a new one to set, or a refusal (with the cookie cleared). */
export type PageCookie = { set: string } | { refused: { status: number; message: string; clear: string } } | null

/** What a Node request names: its sandbox header (duplicates joined, as Node joins them) and cookie. */
export function storeRequest(req: IncomingMessage, path: string): StoreRequest {
  const header = req.headers[SANDBOX_HEADER]
  return { header: Array.isArray(header) ? header.join(', ') : header, cookies: sandboxCookies(req.headers.cookie), method: req.method ?? 'GET', path }
}

/**
 * Every raw value of the sandbox cookie in a Cookie header, even malformed
 * ones, in the order sent: a browser sends one pair per (name, domain, path),
 * longer paths first (RFC 6265 §5.4), so a pair set by another page may come
 * before the one this server set.
 */
export function sandboxCookies(header: string | undefined): string[] {
  const values: string[] = []
  for (const pair of (header ?? '').split(';')) {
    const eq = pair.indexOf('=')
    if (eq >= 0 && pair.slice(0, eq).trim() === SANDBOX_COOKIE) values.push(pair.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1'))
  }
  return values
}

/** A name as quoted in a message: JSON-escaped, cut to 80 characters. */
function quoted(name: string): string {
  return name.length > 80 ? `${JSON.stringify(name.slice(0, 80))}…` : JSON.stringify(name)
}

interface Sandbox {
  service: CrmService
  /** Requests in flight and change streams open. */
  holds: number
}

export class CrmRegistry {
  readonly main: CrmService
  readonly sandboxesEnabled: boolean
  readonly maxSandboxes: number
  readonly #options: CrmServiceOptions
  /** Least recently used first. A Map: a name never meets Object.prototype. */
  readonly #sandboxes = new Map<string, Sandbox>()
  /** Names dropped at the cap, oldest first. */
  readonly #dropped = new Set<string>()
  /** This run's id, in the names its pages give browsers: a name minted by an earlier run names a sandbox that is gone. */
  readonly #run = randomBytes(4).toString('hex')
  /** This run's key for the HMAC in minted names; never leaves the process. */
  readonly #key = randomBytes(32)

  constructor(main: CrmService, options: { sandboxes: boolean; maxSandboxes?: number; serviceOptions: CrmServiceOptions }) {
    this.main = main
    this.sandboxesEnabled = options.sandboxes
    this.maxSandboxes = options.maxSandboxes ?? DEFAULT_MAX_SANDBOXES
    this.#options = options.serviceOptions
  }

  /** The store a request names (see the module comment), or the ApiError it is refused with. Never another store. */
  route(request: StoreRequest): CrmRef | ApiError {
    const named = this.#named(request)
    if (named instanceof ApiError) return named
    if (named === null) return { service: this.main, sandbox: null }
    const { name, source } = named
    const known = this.#sandboxes.get(name)
    if (known) {
      // Most recently used last.
      this.#sandboxes.delete(name)
      this.#sandboxes.set(name, known)
      return { service: known.service, sandbox: name }
    }
    const gone = this.#gone(name)
    if (gone && !FRESH_STARTS.has(`${request.method} ${request.path}`)) {
      return new ApiError(
        410,
        Category.OBJECT_NOT_FOUND,
        `Sandbox ${quoted(name)} (${source}) ${gone}, and its data is gone. Send POST /_ringside/v1/reset (or an import) with this name to start it afresh, or name a new sandbox. Nothing was changed.`,
        { subCategory: 'SANDBOX_DROPPED' },
      )
    }
    if (this.#sandboxes.size >= this.maxSandboxes && !this.#dropOneNotInUse()) {
      return new ApiError(
        429,
        Category.RATE_LIMITS,
        `This server already holds its cap of ${this.maxSandboxes} sandboxes, each in use (a request in flight or a page's change stream open), so sandbox ${quoted(name)} was not created. ` +
          `Start the server with a higher --max-sandboxes, or close pages of other sandboxes. Nothing was changed.`,
        { subCategory: 'SANDBOX_LIMIT' },
      )
    }
    this.#dropped.delete(name)
    const service = createCrmService(this.#options)
    this.#sandboxes.set(name, { service, holds: 0 })
    return { service, sandbox: name }
  }

  /**
   * The one rule for the store a request names: the header's name, as sent
   * (refused when unusable); else the first cookie pair this run minted;
   * else, on a server with sandboxes, a refusal when a cookie pair was sent
   * (none of them minted here). null names the main CRM.
   */
  #named(request: StoreRequest): { name: string; source: string } | ApiError | null {
    if (request.header !== undefined) {
      if (request.header === MAIN_SANDBOX) return null
      const source = `header ${SANDBOX_HEADER}`
      const problem = this.nameProblem(request.header, source)
      return problem ? validationError(problem, { subCategory: 'SANDBOX_NAME' }) : { name: request.header, source }
    }
    if (!this.sandboxesEnabled || request.cookies.length === 0) return null
    const minted = request.cookies.find((value) => this.#isMinted(value))
    if (minted !== undefined) return { name: minted, source: `cookie ${SANDBOX_COOKIE}` }
    const values = request.cookies.map(quoted).join(', ')
    if (request.cookies.some((value) => MINTED.exec(value)?.[2] !== undefined)) {
      return new ApiError(
        410,
        Category.OBJECT_NOT_FOUND,
        `The ${SANDBOX_COOKIE} cookie (${values}) was not given by this run of the server: sandboxes live in memory only, and a restart forgets them. Reload a Ringside page for a fresh sandbox, or name one with the ${SANDBOX_HEADER} header. Nothing was changed.`,
        { subCategory: 'SANDBOX_DROPPED' },
      )
    }
    return validationError(
      `The ${SANDBOX_COOKIE} cookie (${values}) was not given by this server, so it names no store (not even "main": only the ${SANDBOX_HEADER} header can name that). ` +
        `Reload a Ringside page for a fresh sandbox, or name one with the ${SANDBOX_HEADER} header. Nothing was changed.`,
      { subCategory: 'SANDBOX_COOKIE' },
    )
  }

  /** A new sandbox name: "r", this run's id, a random part, then their HMAC under this run's key. */
  #mint(): string {
    const body = `r${this.#run}-${randomBytes(8).toString('hex')}`
    return `${body}-${this.#mac(body)}`
  }

  #mac(body: string): string {
    return createHmac('sha256', this.#key).update(body).digest('hex').slice(0, 32)
  }

  /** Whether this run minted the name (its HMAC verifies under this run's key). */
  #isMinted(value: string): boolean {
    const parts = MINTED.exec(value)
    if (!parts || parts[2] !== this.#run) return false
    return timingSafeEqual(Buffer.from(parts[3] as string), Buffer.from(this.#mac(parts[1] as string)))
  }

  /** Why a sandbox name in the header cannot be used on this server (null when it can, or does not exist yet). */
  nameProblem(name: string, source: string): string | null {
    if (name === MAIN_SANDBOX) return null
    if (!this.sandboxesEnabled) {
      return (
        `This request names sandbox ${quoted(name)} (${source}), but this server was started without --sandboxes: it has only the main database, and will not use it in the sandbox's place. ` +
        `Start the server with --sandboxes, or name no sandbox (or "main") to use the main database. Nothing was changed.`
      )
    }
    if (!SANDBOX_NAME.test(name)) return `Sandbox name ${quoted(name)} (${source}) cannot be used. ${SANDBOX_NAME_RULE} Nothing was changed.`
    return null
  }

  /**
   * Release the sandbox a request names: it is dropped, and its name may
   * start afresh (not remembered as dropped). Refused when it names no
   * sandbox, or one in use (a page's change stream, another request).
   */
  release(request: StoreRequest): ApiError | null {
    const named = this.#named(request)
    if (named instanceof ApiError) return named
    if (named === null) {
      return validationError(`DELETE ${SANDBOX_RELEASE_PATH} releases the sandbox the request names (header ${SANDBOX_HEADER} or cookie ${SANDBOX_COOKIE}); this one names the main database, which is never released.`)
    }
    const { name } = named
    const sandbox = this.#sandboxes.get(name)
    if (sandbox && sandbox.holds > 0) {
      return new ApiError(409, Category.CONFLICT, `Sandbox ${quoted(name)} is in use (${sandbox.holds} request(s) in flight or change stream(s) open): close its pages first. Nothing was changed.`)
    }
    this.#sandboxes.delete(name)
    this.#dropped.delete(name)
    return null
  }

  /** Mark a sandbox in use until the returned function is called (a request in flight, a change stream open). */
  hold(ref: CrmRef): () => void {
    const sandbox = ref.sandbox === null ? undefined : this.#sandboxes.get(ref.sandbox)
    if (!sandbox) return () => {}
    sandbox.holds++
    let released = false
    return () => {
      if (released) return
      released = true
      sandbox.holds--
    }
  }

  /**
   * The sandbox cookie a page response carries (sandboxes on): a new minted
   * name for a browser that sends none this run minted (whatever other pairs
   * it sends); a refusal, clearing the cookie so that a reload starts afresh,
   * for one whose minted sandbox was dropped; otherwise nothing. A server
   * without --sandboxes leaves the cookie alone: it may be another server's.
   */
  pageCookie(cookies: string[]): PageCookie {
    if (!this.sandboxesEnabled) return null
    const minted = cookies.find((value) => this.#isMinted(value))
    if (minted === undefined) return { set: `${SANDBOX_COOKIE}=${this.#mint()}; Path=/; HttpOnly; SameSite=Lax` }
    const gone = this.#sandboxes.has(minted) ? null : this.#gone(minted)
    if (!gone) return null
    const clear = `${SANDBOX_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`
    return { refused: { status: 410, message: `This browser's sandbox ${quoted(minted)} ${gone}, and its data is gone. The cookie is now cleared: reload the page for a fresh sandbox.`, clear } }
  }

  /** Why the sandbox of this name (not held now) is gone, or null when it may be created. */
  #gone(name: string): string | null {
    if (this.#dropped.has(name)) return `was dropped: it was not in use when this server, at its cap of ${this.maxSandboxes} sandboxes (--max-sandboxes), needed room for a new one`
    return null
  }

  /** Drop the least recently used sandbox not in use, remembering its name; false when every one is in use. */
  #dropOneNotInUse(): boolean {
    for (const [name, sandbox] of this.#sandboxes) {
      if (sandbox.holds > 0) continue
      this.#sandboxes.delete(name)
      this.#dropped.add(name)
      if (this.#dropped.size > REMEMBERED_DROPS) this.#dropped.delete(this.#dropped.values().next().value as string)
      return true
    }
    return false
  }
}
