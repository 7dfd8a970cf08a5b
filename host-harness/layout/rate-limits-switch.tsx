/**
 * The Faults panel's rate-limit switch. The emulated API applies the real
 * rate limits to app credentials (OAuth tokens and an integration's private
 * app); this turns them off or back on, through the API
 * (`GET`/`PUT /_ringside/v1/rate-limits`). The harness's own token is never
 * limited, so the harness keeps working either way.
 */
import { useEffect, useState } from 'react'
import { api } from '../lib/api-client.ts'
import type { RateLimitSettings } from '../../emulator/core/http/rate-limits.ts'
import { ApiErrorView } from '../lib/api-error-view.tsx'
import { useAction } from '../lib/use-action.ts'

export const RATE_LIMITS_PATH = '/_ringside/v1/rate-limits'

const per = (ms: number) => (ms === 1000 ? 'second' : `${ms / 1000} s`)

function describe(s: RateLimitSettings): string {
  return `${s.burst.max} requests per ${per(s.burst.intervalMs)} per app, ${s.search.max} searches per ${per(s.search.intervalMs)} per token, ${s.daily.max.toLocaleString('en')} a day per private app`
}

export function RateLimitsSwitch() {
  const [settings, setSettings] = useState<RateLimitSettings | undefined>(undefined)
  const { error, busy, run } = useAction()

  useEffect(() => {
    void run(async () => {
      setSettings(await api.get<RateLimitSettings>(RATE_LIMITS_PATH))
      return ''
    })
  }, [run])

  const toggle = (enabled: boolean) =>
    run(async () => {
      setSettings(await api.put<RateLimitSettings>(RATE_LIMITS_PATH, { enabled }))
      return ''
    })

  return (
    <fieldset className="faults__group">
      <legend>API rate limits</legend>
      <label className="faults__choice">
        <input type="checkbox" checked={settings?.enabled ?? false} disabled={busy || settings === undefined} onChange={(e) => void toggle(e.target.checked)} />
        Apply the real rate limits to app credentials (OAuth tokens, <code>pat-app-local</code>); over a limit the API answers 429
      </label>
      {settings ? <p className="faults__note">{settings.enabled ? `On: ${describe(settings)}.` : 'Off: app credentials are not limited.'} The harness itself is never limited.</p> : null}
      <ApiErrorView error={error} title="The rate-limit switch failed" />
    </fieldset>
  )
}
