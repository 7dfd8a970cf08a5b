/**
 * The public CDN URLs of @hubspot/calling-extensions-sdk (jsDelivr, unpkg), answered
 * offline by the Ringside server's CDN builds, for every page of a browser context:
 * the widget's frame, the calling window, tabs the user opens. The mapping is
 * shared/sdk-cdn/cdn-urls.ts; the kit's fixtures, check-widget and `ringside open`
 * all install it with routeSdkCdn(). A prerelease pin of a release Ringside holds is answered
 * with that release; the served file announces it in its SYNC_ACK, where the harness and the
 * checks warn (cdn-urls.ts, Substitution).
 */
import type { BrowserContext, Route } from '@playwright/test'
import { CDN_SDK_URL, parseCdnUrl, resolveSdkRequest, servedPath, substitutionSentence } from '../shared/sdk-cdn/cdn-urls.ts'

export interface SdkCdnRoutes {
  /** One sentence per SDK URL that could not be answered (an unknown version, a file not served). */
  problems(): string[]
  /** How many SDK requests were answered from Ringside. */
  served(): number
}

const MAX_PROBLEMS = 10

export interface SdkCdnListeners {
  /** An SDK URL was answered with `release`; `substitution`: the sentence naming the release served for a prerelease pin. */
  onServed?: (url: string, release: string, substitution?: string) => void
  /** An SDK URL could not be answered (the sentence problems() lists). */
  onProblem?: (text: string) => void
}

/** Answers the SDK's CDN URLs in `context` from the Ringside server at `harnessOrigin`. */
export async function routeSdkCdn(context: BrowserContext, harnessOrigin: string, listeners: SdkCdnListeners = {}): Promise<SdkCdnRoutes> {
  const problems: string[] = []
  let served = 0
  const note = (text: string) => {
    if (problems.length < MAX_PROBLEMS && !problems.includes(text)) problems.push(text)
    listeners.onProblem?.(text)
  }
  const fail = (route: Route, url: string, reason: string) => {
    note(`The widget loads the calling SDK from ${url}, but ${reason}`)
    return route.fulfill({ status: 404, contentType: 'text/plain; charset=utf-8', headers: { 'access-control-allow-origin': '*' }, body: `${reason}\n` })
  }
  await context.route(CDN_SDK_URL, async (route) => {
    const url = route.request().url()
    const request = parseCdnUrl(url)
    if (!request) return route.fallback()
    const resolution = resolveSdkRequest(request)
    if (!resolution.ok) return fail(route, url, resolution.message)
    let response
    try {
      response = await route.fetch({ url: `${harnessOrigin}${servedPath(request)}`, maxRedirects: 0 })
    } catch (error) {
      return fail(route, url, `Ringside's server at ${harnessOrigin} did not answer (${error instanceof Error ? error.message.split('\n')[0] : String(error)}).`)
    }
    if (response.status() !== 200) return fail(route, url, (await response.text()).trim() || `Ringside's server answered ${response.status()}.`)
    served += 1
    listeners.onServed?.(url, resolution.release.version, resolution.substitution && substitutionSentence(resolution.substitution))
    return route.fulfill({ response })
  })
  return { problems: () => [...problems], served: () => served }
}
