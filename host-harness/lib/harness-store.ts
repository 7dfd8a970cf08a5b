/**
 * The harness's own state (one Zustand store): what the emulated CRM UI
 * remembers between reloads that the API does not hold for it.
 *
 * - `oauth`: the tokens obtained by connecting the app through the consent
 *   page (the harness plays the app's back end here, so it keeps them).
 * - `pendingOAuthState`: the `state` sent to the consent page, checked on the
 *   callback (CSRF protection, as a real app does).
 * - `appName`: the developer app's name, as the emulator reports it (a copy,
 *   not persisted).
 * - `appIcon`: the app's icon. The emulated API has no app-settings
 *   endpoint, so it lives here, persisted to localStorage.
 *
 * Persisted state is read back through zod: a corrupt or hand-edited
 * localStorage entry is dropped field by field, never trusted.
 */
import { create } from 'zustand'
import { createJSONStorage, persist } from 'zustand/middleware'
import { z } from 'zod'

export const oauthConnectionSchema = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1),
  tokenType: z.string(),
  scopes: z.array(z.string()),
  /** Epoch ms when the access token expires. */
  expiresAt: z.number(),
  /** Epoch ms when the tokens were obtained (or last refreshed). */
  obtainedAt: z.number(),
  hubId: z.number().optional(),
  userId: z.number().optional(),
})
export type OAuthConnection = z.infer<typeof oauthConnectionSchema>

export const appIconSchema = z.object({
  /** `data:image/png;base64,…` or `data:image/jpeg;base64,…` */
  dataUrl: z.string().regex(/^data:image\/(?:png|jpeg);base64,[A-Za-z0-9+/=]+$/),
  mimeType: z.enum(['image/png', 'image/jpeg']),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  bytes: z.number().int().nonnegative(),
  fileName: z.string(),
})
export type AppIcon = z.infer<typeof appIconSchema>

export const DEFAULT_APP_NAME = 'Ringside Local App'

const persistedSchema = z.object({
  oauth: oauthConnectionSchema.nullable().catch(null),
  pendingOAuthState: z.string().nullable().catch(null),
  appIcon: appIconSchema.nullable().catch(null),
})
type Persisted = z.infer<typeof persistedSchema>

export interface HarnessState extends Persisted {
  appName: string
  setOAuthConnection(connection: OAuthConnection): void
  clearOAuthConnection(): void
  setPendingOAuthState(state: string | null): void
  setAppName(name: string): void
  setAppIcon(icon: AppIcon | null): void
}

const initialState: Persisted & { appName: string } = {
  oauth: null,
  pendingOAuthState: null,
  appName: DEFAULT_APP_NAME,
  appIcon: null,
}

export const STORE_KEY = 'ringside:harness'

export const useHarnessStore = create<HarnessState>()(
  persist(
    (set) => ({
      ...initialState,
      setOAuthConnection: (connection) => set({ oauth: connection }),
      clearOAuthConnection: () => set({ oauth: null }),
      setPendingOAuthState: (pendingOAuthState) => set({ pendingOAuthState }),
      setAppName: (appName) => set({ appName }),
      setAppIcon: (appIcon) => set({ appIcon }),
    }),
    {
      name: STORE_KEY,
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: (state): Persisted => ({
        oauth: state.oauth,
        pendingOAuthState: state.pendingOAuthState,
        appIcon: state.appIcon,
      }),
      merge: (persisted, current) => {
        const parsed = persistedSchema.safeParse(persisted ?? {})
        return parsed.success ? { ...current, ...parsed.data } : current
      },
    },
  ),
)

/** Back to a fresh harness (tests, and the database panel's reset). */
export function resetHarnessStore(): void {
  useHarnessStore.setState(initialState)
}
