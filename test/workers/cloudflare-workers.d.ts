/**
 * The one Workers module the contract suites import, typed here rather than by @cloudflare/workers-types, whose
 * globals (Request, Response, caches...) would clash with Node's in this project's single tsconfig.
 */
declare module 'cloudflare:workers' {
  /** The bindings of test/workers/wrangler.jsonc. */
  export const env: Record<string, unknown>;
}
