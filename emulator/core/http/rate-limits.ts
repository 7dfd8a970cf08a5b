/**
 * Rate limits of the real API, so that retry code has something to meet
 * (https://developers.hubspot.com/docs/developer-tooling/platform/usage-guidelines):
 *
 * - burst: 100 requests per rolling 10 seconds. OAuth access tokens count
 *   per app and account; a private-app token counts on its own, and also
 *   against a daily limit of 250,000 requests (the Free/Starter tier; the
 *   higher tiers' 190 per 10 s and 625,000+ per day can be set instead);
 * - search (`POST /crm/v3/objects/{type}/search`): 5 requests per second
 *   per token, on top of the burst limit (the CRM search guide's figure; the
 *   2020 changelog that raised it from 1 said 4, so set `search.max: 4` to
 *   meet the stricter reading);
 * - every counted response carries the real headers:
 *   `X-HubSpot-RateLimit-Interval-Milliseconds`, `-Max`, `-Remaining`,
 *   `-Secondly`/`-Secondly-Remaining` on search, and for private apps
 *   `-Daily`/`-Daily-Remaining` (the real API leaves the daily ones off for
 *   OAuth);
 * - over a limit the answer is 429 with the real body,
 *   `{status: "error", message: "You have reached your ten_secondly_rolling limit.",
 *   errorType: "RATE_LIMIT", correlationId, policyName: "TEN_SECONDLY_ROLLING",
 *   groupName}` (policy SECONDLY with "You have reached your secondly
 *   limit." for search, DAILY for the daily limit), plus `category:
 *   "RATE_LIMITS"`. The official client retries on exactly these bodies.
 *
 * Counted: requests with a Bearer credential on the API's own routes. Not
 * counted: the harness's own token (`pat-local`, the CRM's UI), the
 * developer API key, the OAuth token endpoint and the emulator's
 * `/_ringside/*` routes. A refused request does not use up the allowance.
 * Windows use the service's clock, so tests move time instead of waiting.
 *
 * On by default at the real numbers. `createCrmService({ rateLimits })`
 * (the server's flag) and `PUT /_ringside/v1/rate-limits` (the harness's
 * Faults panel) change them or turn them off; the counters live in memory
 * only and start empty when the settings change.
 */
import { z } from 'zod'
import { ACCOUNT, type Principal } from './auth.ts'

/** The harness's own token (the CRM's UI): never counted. */
const HARNESS_PRIVATE_APP_TOKEN = ACCOUNT.privateAppToken
import { ApiError, Category } from './errors.ts'
import { json, parseInput } from './http.ts'
import type { Route } from './route.ts'

export interface RateLimitSettings {
  enabled: boolean
  /** Requests per rolling window, per app and account (OAuth) or per private-app token. */
  burst: { max: number; intervalMs: number }
  /** Search requests per second per token. */
  search: { max: number; intervalMs: number }
  /** Requests per day per private-app token (the real API has no daily limit for OAuth apps). */
  daily: { max: number }
}

/** The real limits of an app in a Free or Starter account. */
export const REAL_RATE_LIMITS: RateLimitSettings = {
  enabled: true,
  burst: { max: 100, intervalMs: 10_000 },
  search: { max: 5, intervalMs: 1000 },
  daily: { max: 250_000 },
}

const DAY_MS = 24 * 60 * 60 * 1000

const settingsSchema = z.object({
  enabled: z.boolean().optional(),
  burst: z.object({ max: z.number().int().min(1).max(1_000_000), intervalMs: z.number().int().min(100).max(DAY_MS) }).optional(),
  search: z.object({ max: z.number().int().min(1).max(1_000_000), intervalMs: z.number().int().min(100).max(DAY_MS) }).optional(),
  daily: z.object({ max: z.number().int().min(1).max(100_000_000) }).optional(),
})
export type RateLimitInput = z.infer<typeof settingsSchema>

/** A rolling window of request times (ms), oldest first. */
class Window {
  #times: number[] = []
  #start = 0

  count(now: number, intervalMs: number): number {
    while (this.#start < this.#times.length && (this.#times[this.#start] as number) <= now - intervalMs) this.#start++
    if (this.#start > 1024 && this.#start * 2 > this.#times.length) {
      this.#times = this.#times.slice(this.#start)
      this.#start = 0
    }
    return this.#times.length - this.#start
  }

  add(now: number): void {
    this.#times.push(now)
  }
}

interface Counters {
  burst: Window
  search: Window
  day: { day: number; count: number }
}

type Policy = 'TEN_SECONDLY_ROLLING' | 'SECONDLY' | 'DAILY'

const MESSAGES: Record<Policy, string> = {
  TEN_SECONDLY_ROLLING: 'You have reached your ten_secondly_rolling limit.',
  SECONDLY: 'You have reached your secondly limit.',
  DAILY: 'You have reached your daily limit.',
}

/** A 429 with the real body (its fields beside the uniform ones). */
export class RateLimitError extends ApiError {
  readonly policyName: Policy
  readonly groupName: string

  constructor(policy: Policy, groupName: string, headers: Record<string, string>) {
    super(429, Category.RATE_LIMITS, MESSAGES[policy], { headers })
    this.policyName = policy
    this.groupName = groupName
  }

  override toBody(correlationId: string) {
    return { ...super.toBody(correlationId), errorType: 'RATE_LIMIT', policyName: this.policyName, groupName: this.groupName }
  }
}

export class RateLimiter {
  #settings: RateLimitSettings
  #counters = new Map<string, Counters>()

  constructor(initial: RateLimitInput | false | undefined) {
    this.#settings = structuredClone(REAL_RATE_LIMITS)
    if (initial === false) this.#settings.enabled = false
    else if (initial) this.update(initial)
  }

  get settings(): RateLimitSettings {
    return structuredClone(this.#settings)
  }

  /** Change the settings (missing parts are kept) and start every counter afresh. */
  update(input: RateLimitInput): RateLimitSettings {
    this.#settings = {
      enabled: input.enabled ?? this.#settings.enabled,
      burst: input.burst ?? this.#settings.burst,
      search: input.search ?? this.#settings.search,
      daily: input.daily ?? this.#settings.daily,
    }
    this.#counters.clear()
    return this.settings
  }

  /**
   * Count one request. Returns the headers to send with its answer, or
   * throws the 429 when a limit is reached. Exempt requests return {}.
   */
  take(principal: Principal, isSearch: boolean, now: number): Record<string, string> {
    const s = this.#settings
    if (!s.enabled) return {}
    let group: string
    let daily = false
    if (principal.kind === 'oauth') group = `publicapi:app-id:${principal.appId}:${principal.hubId}`
    else if (principal.kind === 'private-app' && principal.token !== HARNESS_PRIVATE_APP_TOKEN) {
      group = `publicapi:private-app:${principal.token}`
      daily = true
    } else return {}
    const counters = this.#countersOf(group)
    const dayNumber = Math.floor(now / DAY_MS)
    if (counters.day.day !== dayNumber) counters.day = { day: dayNumber, count: 0 }

    const burstUsed = counters.burst.count(now, s.burst.intervalMs)
    const searchUsed = isSearch ? counters.search.count(now, s.search.intervalMs) : 0
    const headers = (burstLeft: number, searchLeft: number, dayLeft: number): Record<string, string> => ({
      'x-hubspot-ratelimit-interval-milliseconds': String(s.burst.intervalMs),
      'x-hubspot-ratelimit-max': String(s.burst.max),
      'x-hubspot-ratelimit-remaining': String(Math.max(0, burstLeft)),
      ...(isSearch && { 'x-hubspot-ratelimit-secondly': String(s.search.max), 'x-hubspot-ratelimit-secondly-remaining': String(Math.max(0, searchLeft)) }),
      ...(daily && { 'x-hubspot-ratelimit-daily': String(s.daily.max), 'x-hubspot-ratelimit-daily-remaining': String(Math.max(0, dayLeft)) }),
    })
    const before = headers(s.burst.max - burstUsed, s.search.max - searchUsed, s.daily.max - counters.day.count)
    if (daily && counters.day.count >= s.daily.max) throw new RateLimitError('DAILY', group, before)
    if (burstUsed >= s.burst.max) throw new RateLimitError('TEN_SECONDLY_ROLLING', group, before)
    if (isSearch && searchUsed >= s.search.max) throw new RateLimitError('SECONDLY', group, before)
    counters.burst.add(now)
    if (isSearch) counters.search.add(now)
    counters.day.count++
    return headers(s.burst.max - burstUsed - 1, s.search.max - searchUsed - 1, s.daily.max - counters.day.count)
  }

  #countersOf(group: string): Counters {
    let counters = this.#counters.get(group)
    if (!counters) {
      counters = { burst: new Window(), search: new Window(), day: { day: -1, count: 0 } }
      this.#counters.set(group, counters)
    }
    return counters
  }
}

/**
 * Emulator endpoints for the settings (no credentials, like every
 * `/_ringside/v1/*` route): `GET /_ringside/v1/rate-limits` → the settings;
 * `PUT` with any part of them (`{"enabled": false}`) → 200 and the new settings.
 */
export function rateLimitRoutes(limiter: RateLimiter): Route[] {
  const none = { kind: 'none' } as const
  return [
    {
      method: 'GET',
      path: '/_ringside/v1/rate-limits',
      auth: none,
      handler() {
        return json({ ...limiter.settings, real: REAL_RATE_LIMITS })
      },
    },
    {
      method: 'PUT',
      path: '/_ringside/v1/rate-limits',
      auth: none,
      handler(ctx) {
        const input = parseInput(settingsSchema.strict(), ctx.jsonBody())
        return json({ ...limiter.update(input), real: REAL_RATE_LIMITS })
      },
    },
  ]
}
