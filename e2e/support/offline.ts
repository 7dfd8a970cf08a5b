/**
 * No request leaves the machine: every http(s) URL that is not 127.0.0.1 fails as
 * if the network were down, except the calling SDK's CDN URLs, which fall through
 * to the kit's routes (kit/sdk-cdn.ts) and are answered by Ringside. Install it
 * after those routes: Playwright tries the newest route first.
 */
import type { BrowserContext } from '@playwright/test'
import { CDN_SDK_URL } from '../../shared/sdk-cdn/cdn-urls.ts'

export async function blockInternet(context: BrowserContext): Promise<void> {
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => (CDN_SDK_URL.test(route.request().url()) ? route.fallback() : route.abort('internetdisconnected')))
}
