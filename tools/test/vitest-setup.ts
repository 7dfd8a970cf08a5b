import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { afterEach, vi } from 'vitest'

// Files share their worker's jsdom (vitest.config.ts: isolate false): each starts with the empty
// storage and body a jsdom of its own would have. (A file may choose the node environment instead.)
if (typeof document !== 'undefined') {
  localStorage.clear()
  sessionStorage.clear()
  document.body.replaceChildren()
}

// A stubbed global (vi.stubGlobal) would otherwise stay for the worker's next file.
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})
