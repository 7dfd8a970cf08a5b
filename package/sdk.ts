/** `ringside/sdk`: both sides of the calling SDK. Import `ringside/sdk/widget` or `ringside/sdk/host` to take one side only. */
export * from '../shared/protocol/index.ts'
