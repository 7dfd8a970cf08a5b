export declare const DEFAULT_PORTS: Readonly<{ start: number; checkWidget: number; preview: number; e2e: number }>
export declare const E2E_BLOCK_SIZE: number
export declare function loopbackUrl(port: number): string
