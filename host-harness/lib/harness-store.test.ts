import { STORE_KEY, useHarnessStore, resetHarnessStore } from './harness-store.ts'

beforeEach(() => {
  localStorage.clear()
  resetHarnessStore()
})

async function rehydrateFrom(value: string): Promise<void> {
  localStorage.setItem(STORE_KEY, value)
  await useHarnessStore.persist.rehydrate()
}

test('tokens survive a reload through localStorage', async () => {
  useHarnessStore.getState().setOAuthConnection({ accessToken: 'CNa', refreshToken: 'na1-b', tokenType: 'bearer', scopes: ['oauth'], expiresAt: 2, obtainedAt: 1 })
  const saved = localStorage.getItem(STORE_KEY)!
  resetHarnessStore()
  await rehydrateFrom(saved)
  expect(useHarnessStore.getState().oauth?.accessToken).toBe('CNa')
})

test('a corrupt stored entry is ignored field by field, never trusted', async () => {
  await rehydrateFrom(
    JSON.stringify({
      state: {
        oauth: { accessToken: 42 },
        pendingOAuthState: 'kept',
        appIcon: { dataUrl: 'data:image/svg+xml;base64,PHN2Zz4=', mimeType: 'image/svg+xml', width: 1, height: 1, bytes: 1, fileName: 'x.svg' },
      },
      version: 1,
    }),
  )
  const state = useHarnessStore.getState()
  expect(state.oauth).toBeNull()
  expect(state.appIcon).toBeNull()
  expect(state.pendingOAuthState).toBe('kept')
})

test('a stored value that is not JSON leaves the defaults', async () => {
  await rehydrateFrom('{not json')
  expect(useHarnessStore.getState().oauth).toBeNull()
})
