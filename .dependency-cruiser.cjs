/**
 * The layers, checked by `npm run lint` (scripts/check-layers.ts) and proved by test/repo/architecture/layers.test.ts:
 *
 *   src/runtimes/<node|workers> (each runtime's entry points and its composition root, the one place adapters are
 *   chosen) -> src/app.ts, src/http, src/mcp (transports) -> src/domain (verbs) -> src/ports (interfaces) <- src/adapters
 *
 * A runtime's entry points live in its folder: Node's processes and CLI in src/runtimes/node/entry/, the Worker's
 * handlers in src/runtimes/workers/worker.ts.
 * src/config/ parses the settings and src/providers.ts registers the providers: the runtimes read
 * both, and neither reaches up to a transport or a runtime. Tests (*.test.ts) are left out: a test may reach any
 * layer. Paths are relative to the folder cruised from, so the rules hold as well for test/repo/architecture/fixtures.
 */
const DOMAIN = '^src/domain/';
const PORTS = '^src/ports/';
const ADAPTERS = '^src/adapters/';
const HTTP = '^src/http/';
const MCP = '^src/mcp/';
const APP = '^src/app\\.ts$';
const CONFIG = '^src/config/';
const PROVIDERS = '^src/providers(\\.ts$|/)';
const NODE_RUNTIME = '^src/runtimes/node/';
const WORKERS_RUNTIME = '^src/runtimes/workers(/|-types\\.d\\.ts$)';
const ENTRY = '^src/runtimes/(node/entry/|workers/worker\\.ts$)';
const TEST_SUPPORT = '^src/test-support/';

/** A package's files, wherever node_modules is (a worktree's may be a link to another checkout's). */
const packages = (...names) => `(^|/)node_modules/(${names.map((name) => name.replace(/[.]/g, '\\.')).join('|')})/`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment:
        'src/domain holds the transport-free verbs: it imports only itself, src/ports and pure libraries (zod for ' +
        'schemas, standardwebhooks to sign webhooks, ipaddr.js to compare client addresses). No Hono, no Node ' +
        'built-ins, no adapters, transports, runtimes or settings: those are handed to it as ports.',
      severity: 'error',
      from: { path: DOMAIN },
      to: { pathNot: [DOMAIN, PORTS, packages('zod', 'standardwebhooks', 'ipaddr.js')] },
    },
    {
      name: 'ports-are-interfaces',
      comment:
        'src/ports declares what the domain needs, in its own terms: it imports only other ports. The one library ' +
        'is the OpenTelemetry API (ports/tracer.ts): a runtime-neutral, no-op API until an SDK in src/adapters ' +
        'registers itself, which is a port in all but name.',
      severity: 'error',
      from: { path: PORTS },
      to: { pathNot: [PORTS, packages('@opentelemetry/api')] },
    },
    {
      name: 'adapters-below-the-domain',
      comment:
        'An adapter implements a port; it never reaches up into the domain, which is written against the ports ' +
        'alone. (Provider adapters and their model catalogue have the exception below.)',
      severity: 'error',
      from: { path: ADAPTERS, pathNot: '^src/adapters/providers/' },
      to: { path: DOMAIN },
    },
    {
      name: 'provider-adapters-only-to-their-catalogue',
      comment:
        "Broken on purpose, narrowly: a provider folder holds its models and prices, written in the catalogue's " +
        'terms (src/domain/models/types.ts) and priced by its rules (src/domain/models/pricing.ts: the cost of an ' +
        "answer is what the catalogue says it costs); an adapter reads an image's size with the same header reader " +
        'the inputs use (src/domain/inputs/image-header.ts). All three are pure functions and types. Nothing else in ' +
        'the domain is theirs to import.',
      severity: 'error',
      from: { path: '^src/adapters/providers/' },
      to: { path: DOMAIN, pathNot: '^src/domain/(models/(types|pricing)\\.ts$|inputs/image-header\\.ts$)' },
    },
    {
      name: 'adapters-not-above-ports',
      comment: 'Adapters are chosen by a runtime and given their settings as options: they import no transport, runtime, ' + 'entry point or settings module.',
      severity: 'error',
      from: { path: ADAPTERS },
      to: { path: [HTTP, MCP, APP, CONFIG, '^src/runtimes/'] },
    },
    {
      name: 'adapters-not-to-the-provider-registry',
      comment:
        'Broken on purpose by provider adapters only: a provider built another way on some runtime (Workers AI ' +
        'through its binding, workers-ai-binding-spec.ts) is written as an entry of the registry, so it takes the ' +
        "registry's ProviderSpec type. Issue 34 moves each provider into one folder; this exception goes with it.",
      severity: 'error',
      from: { path: ADAPTERS, pathNot: '^src/adapters/providers/' },
      to: { path: PROVIDERS },
    },
    {
      name: 'transports-not-to-adapters-or-roots',
      comment:
        'The app, the HTTP routes and the MCP tools reach storage, queues and providers only through the ports in ' +
        'Deps: never an adapter, nor the provider registry that builds them, a runtime or an entry point.',
      severity: 'error',
      from: { path: [HTTP, MCP, APP] },
      to: { path: [ADAPTERS, PROVIDERS, '^src/runtimes/'] },
    },
    {
      name: 'mcp-not-to-http',
      comment:
        'MCP is a transport of its own (stdio, or mounted at /mcp): what it shares with HTTP (validation wording, ' +
        'body limits, error shapes) lives in the domain, so the stdio server loads no HTTP module.',
      severity: 'error',
      from: { path: MCP },
      to: { path: HTTP },
    },
    {
      name: 'http-to-mcp-only-to-mount-it',
      comment: 'Only the /mcp route (src/http/routes/mcp/) imports the MCP server, to mount it over HTTP: one direction.',
      severity: 'error',
      from: { path: HTTP, pathNot: '^src/http/routes/mcp/' },
      to: { path: MCP },
    },
    {
      name: 'settings-below-the-transports',
      comment:
        'Parsing the settings needs the domain at most: never a transport, an adapter, a runtime or an entry point. ' +
        "Broken on purpose by one edge: the settings take each provider's settings fragment from the provider " +
        "registry (src/adapters/providers/registry.ts), so a provider's settings live in its folder and Config's " +
        'provider part is inferred from them, not kept by hand.',
      severity: 'error',
      from: { path: CONFIG },
      to: { path: [HTTP, MCP, APP, ADAPTERS, '^src/runtimes/'], pathNot: '^src/adapters/providers/registry\\.ts$' },
    },
    {
      name: 'provider-registry-below-the-transports',
      comment: 'The provider registry builds provider adapters for a runtime; it imports no transport, runtime or entry point.',
      severity: 'error',
      from: { path: PROVIDERS },
      to: { path: [HTTP, MCP, APP, '^src/runtimes/'] },
    },
    {
      name: 'node-runtime-apart-from-workers',
      comment:
        'Each runtime chooses its own adapters; neither loads the other (Node code cannot run on Workers, and Workers ' +
        "code needs its bindings). A runtime's entry points are in its folder, so they are kept apart as well.",
      severity: 'error',
      from: { path: NODE_RUNTIME },
      to: { path: WORKERS_RUNTIME },
    },
    {
      name: 'workers-runtime-apart-from-node',
      comment: 'Each runtime chooses its own adapters; neither loads the other (Node code cannot run on Workers, and Workers code needs its bindings).',
      severity: 'error',
      from: { path: WORKERS_RUNTIME },
      to: { path: NODE_RUNTIME },
    },
    {
      name: 'nothing-below-imports-a-runtime',
      comment: 'Runtimes compose everything below them; nothing below reaches back up (test helpers excepted: they build a runtime to test it).',
      severity: 'error',
      from: { pathNot: ['^src/runtimes/', TEST_SUPPORT] },
      to: { path: '^src/runtimes/' },
    },
    {
      name: 'nothing-imports-an-entry-point',
      comment: 'Entry points start processes (or, on Workers, answer its events); nothing else imports them (test helpers excepted).',
      severity: 'error',
      from: { pathNot: [ENTRY, TEST_SUPPORT] },
      to: { path: ENTRY },
    },
    {
      name: 'no-test-support-in-the-service',
      comment: 'src/test-support is for tests; the service never loads it.',
      severity: 'error',
      from: { pathNot: TEST_SUPPORT },
      to: { path: TEST_SUPPORT },
    },
    {
      name: 'no-circular',
      comment:
        'A cycle makes two modules one: neither can be understood, tested or moved alone, and load order decides ' +
        'what is undefined. Test helpers are left out (harness.ts loads the wrangler-dev harness on demand, which ' +
        'takes its types back). A cycle through a type-only import is allowed: the provider registry ' +
        "infers every provider's settings type (ProviderEnv) from the specs that take it, which is one type, not a " +
        'load-order hazard (type imports are erased).',
      severity: 'error',
      from: { pathNot: TEST_SUPPORT },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    // Tests, and a provider's loopback fake and shared-suite subject (test code kept beside its adapter), may reach
    // any layer; the layers are about the service's own modules.
    exclude: { path: '\\.(test|fake|subject)\\.ts$' },
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a domain that imports an adapter's types depends on it all the same.
    tsPreCompilationDeps: true,
    // Packages' subpath exports (hono/body-limit, @modelcontextprotocol/sdk/server/mcp.js) resolve as Node resolves them.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
  },
};
