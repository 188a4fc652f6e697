/**
 * The few Workers runtime APIs imagegate's Workers adapters use, typed here rather than by
 * @cloudflare/workers-types, whose globals (Request, Response, caches...) would clash with Node's in this
 * project's single tsconfig. Each matches the declaration of the same name in @cloudflare/workers-types.
 */
declare module 'cloudflare:workers' {
  /** The Worker's bindings (in tests: those of test/runtimes/workers/wrangler.jsonc). */
  export const env: Record<string, unknown>;

  export interface DurableObjectStorage {
    get<T>(key: string): Promise<T | undefined>;
    put<T>(key: string, value: T): Promise<void>;
  }

  /** A Workers WebSocket: one end of a WebSocketPair, or the socket of a `fetch` answered 101. */
  export interface WorkerWebSocket {
    accept(): void;
    send(message: string): void;
    close(code?: number, reason?: string): void;
    addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
    addEventListener(type: 'close', listener: () => void): void;
  }

  /** The global `WebSocketPair` (not exported by the module: reached through globalThis). */
  export type WebSocketPairConstructor = new () => { 0: WorkerWebSocket; 1: WorkerWebSocket };

  export interface DurableObjectState {
    readonly storage: DurableObjectStorage;
    /** Hibernatable sockets: held by the runtime, which wakes the object for their events. */
    acceptWebSocket(socket: WorkerWebSocket): void;
    getWebSockets(): WorkerWebSocket[];
  }

  /** The base class of a Durable Object whose public methods are called over RPC. */
  export abstract class DurableObject<Env = unknown> {
    protected ctx: DurableObjectState;
    protected env: Env;
    constructor(ctx: DurableObjectState, env: Env);
    fetch?(request: Request): Promise<Response>;
    webSocketClose?(socket: WorkerWebSocket, code: number, reason: string, wasClean: boolean): Promise<void>;
  }
}

declare module 'cloudflare:test' {
  /** A migration file as `readD1Migrations` read it. */
  export interface D1Migration {
    name: string;
    queries: string[];
  }
  /** Applies the migrations not yet recorded in the database's `d1_migrations` table, as `wrangler d1 migrations apply` does. */
  export function applyD1Migrations(db: unknown, migrations: D1Migration[], migrationsTableName?: string): Promise<void>;

  /** The 3rd argument of a Worker's handlers, whose `waitUntil`ed work `getQueueResult` waits for. */
  export interface ExecutionContext {
    waitUntil(promise: Promise<unknown>): void;
  }
  export function createExecutionContext(): ExecutionContext;

  /** A message as a test hands it to `createMessageBatch`. */
  export interface ServiceBindingQueueMessage<Body = unknown> {
    id: string;
    timestamp: Date;
    attempts: number;
    body: Body;
  }
  // The shapes the pushed JobQueue already declares (queue-messages.ts), so a test's batch is the handler's.
  export type QueueMessage<Body = unknown> = import('../adapters/queue/queue-messages.js').QueueMessage<Body>;
  export type MessageBatch<Body = unknown> = import('../adapters/queue/queue-messages.js').MessageBatch<Body>;
  /** A batch as the runtime builds it for a Worker's `queue()` handler, its acks and retries recorded. */
  export function createMessageBatch<Body = unknown>(queueName: string, messages: ServiceBindingQueueMessage<Body>[]): MessageBatch<Body>;

  /** What the runtime would do with each message of the batch once the handler returned. */
  export interface FetcherQueueResult {
    outcome: string;
    ackAll: boolean;
    retryBatch: { retry: boolean; delaySeconds?: number };
    explicitAcks: string[];
    retryMessages: { msgId: string; delaySeconds?: number }[];
  }
  export function getQueueResult(batch: MessageBatch, ctx: ExecutionContext): Promise<FetcherQueueResult>;
}
