/**
 * Ringside's SDK as one release's `dist/main.esm.js` of @hubspot/calling-extensions-sdk
 * (an ES module exporting `default`, `Constants` and `IFrameManager`). The server
 * writes the release into RELEASE_SLOT when it serves the file.
 */
import { servedRelease } from '../shared/sdk-cdn/globals.ts'

const { api } = servedRelease()

export default api.default
export const Constants = api.Constants
export const IFrameManager = api.IFrameManager
