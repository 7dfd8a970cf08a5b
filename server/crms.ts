/**
 * Which database a request uses, in one rule: a request that names a store
 * is served by that store or refused, never by another one.
 *
 * Normally there is one store: the main CRM, kept on disk. With sandboxes on
 * (`--sandboxes`, for test suites that run in parallel), each browser profile
 * gets a fresh in-memory CRM of its own, as each profile got its own database
 * in browser-only mode:
 *
 * - a page response to a browser that has no `ringside_sandbox` cookie sets
 *   one to a new random name, so every page, tab and frame of that profile
 *   (harness, consent page, widget pages, on every port of this host) shares it;
 * - an API request names its sandbox by the `x-ringside-sandbox` header, else
 *   by that cookie; one that names none, or `main`, uses the main CRM (a
 *   backend, curl, a test that wants the shared database).
 *
 * A request is refused, and nothing is changed, when it names a sandbox that
 * breaks the naming rule (400), names one on a server started without
 * `--sandboxes` (400), names one that was dropped (410), or would create one
 * more than the cap while every sandbox is in use (429).
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
import type { IncomingMessage } from 'node:http'
import { createCrmService, type CrmService, type CrmServiceOptions } from '../shared/api/service.ts'
import { ApiError, Category, validationError } from '../shared/api/errors.ts'
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
/** A name a page response gave a browser: this server run's id, then a random UUID. */
const MINTED = /^r([0-9a-f]{8})-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
/** Requests that replace a sandbox's data whole, so they may start a dropped one afresh. */
const FRESH_STARTS = new Set(['POST /_ringside/v1/reset', 'POST /_ringside/v1/import'])

export interface CrmRef {
  service: CrmService
  /** null for the main CRM. */
  sandbox: string | null
}

/** What a request says about its store: the header's value, else the cookie's (undefined when absent). */
export interface StoreRequest {
  header: string | undefined
  cookie: string | undefined
  method: string
  path: string
}

/** A page response's sandbox cookie: a new one to set, or a refusal (with the cookie cleared). */
export type PageCookie = { set: string } | { refused: { status: number; message: string; clear: string } } | null

/** What a Node request names: its sandbox header (duplicates joined, as Node joins them) and cookie. */
export function storeRequest(req: IncomingMessage, path: string): StoreRequest {
  const header = req.headers[SANDBOX_HEADER]
  return { header: Array.isArray(header) ? header.join(', ') : header, cookie: sandboxCookie(req.headers.cookie), method: req.method ?? 'GET', path }
}

/** The raw value of the sandbox cookie in a Cookie header, even a malformed one (undefined when there is none). */
export function sandboxCookie(header: string | undefined): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const eq = pair.indexOf('=')
    if (eq >= 0 && pair.slice(0, eq).trim() === SANDBOX_COOKIE) return pair.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1')
  }
  return undefined
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
  readonly #run = crypto.randomUUID().slice(0, 8)

  constructor(main: CrmService, options: { sandboxes: boolean; maxSandboxes?: number; serviceOptions: CrmServiceOptions }) {
    this.main = main
    this.sandboxesEnabled = options.sandboxes
    this.maxSandboxes = options.maxSandboxes ?? DEFAULT_MAX_SANDBOXES
    this.#options = options.serviceOptions
  }

  /** The store a request names (see the module comment), or the ApiError it is refused with. Never another store. */
  route(request: StoreRequest): CrmRef | ApiError {
    const source = request.header !== undefined ? `header ${SANDBOX_HEADER}` : `cookie ${SANDBOX_COOKIE}`
    const name = request.header ?? request.cookie
    if (name === undefined || name === MAIN_SANDBOX) return { service: this.main, sandbox: null }
    const problem = this.nameProblem(name, source)
    if (problem) return validationError(problem, { subCategory: 'SANDBOX_NAME' })
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

  /** Why a named store cannot be used on this server (null when it can, or does not exist yet). */
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
    const source = request.header !== undefined ? `header ${SANDBOX_HEADER}` : `cookie ${SANDBOX_COOKIE}`
    const name = request.header ?? request.cookie
    if (name === undefined || name === MAIN_SANDBOX) {
      return validationError(`DELETE ${SANDBOX_RELEASE_PATH} releases the sandbox the request names (header ${SANDBOX_HEADER} or cookie ${SANDBOX_COOKIE}); this one names the main database, which is never released.`)
    }
    const problem = this.nameProblem(name, source)
    if (problem) return validationError(problem, { subCategory: 'SANDBOX_NAME' })
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
   * The sandbox cookie a page response carries: a new name for a browser that
   * has none (sandboxes on); a refusal, clearing the cookie so that a reload
   * starts afresh, for a browser whose cookie names a sandbox this server
   * cannot serve (an unusable name, one dropped, or any on a server without
   * --sandboxes); otherwise nothing.
   */
  pageCookie(cookie: string | undefined): PageCookie {
    const clear = `${SANDBOX_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`
    if (cookie === undefined) return this.sandboxesEnabled ? { set: `${SANDBOX_COOKIE}=r${this.#run}-${crypto.randomUUID()}; Path=/; HttpOnly; SameSite=Lax` } : null
    const problem = this.nameProblem(cookie, `cookie ${SANDBOX_COOKIE}`)
    if (problem) return { refused: { status: 400, message: `${problem} The cookie is now cleared: reload the page.`, clear } }
    const gone = this.#sandboxes.has(cookie) ? null : this.#gone(cookie)
    if (gone) return { refused: { status: 410, message: `This browser's sandbox ${quoted(cookie)} ${gone}, and its data is gone. The cookie is now cleared: reload the page for a fresh sandbox.`, clear } }
    return null
  }

  /** Why the sandbox of this name (not held now) is gone, or null when it may be created. */
  #gone(name: string): string | null {
    if (this.#dropped.has(name)) return `was dropped: it was not in use when this server, at its cap of ${this.maxSandboxes} sandboxes (--max-sandboxes), needed room for a new one`
    const run = MINTED.exec(name)?.[1]
    if (run !== undefined && run !== this.#run) return 'was given to this browser by an earlier run of this server: sandboxes live in memory only, and a restart forgets them'
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
