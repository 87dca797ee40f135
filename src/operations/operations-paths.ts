// The operations' paths in a module of their own, so the installation names' check can
// reserve them without loading the operations' handlers (metrics, health).

/**
 * The paths the operations answer before the process's own handler. Their first segments are
 * reserved: no installation may be named `healthz`, `readyz` or `metrics` (main/installation-name.ts).
 */
export const operationsPaths = { health: '/healthz', ready: '/readyz', metrics: '/metrics' } as const;
