/** Apart from start-tracing.ts: the SDK's module (node-sdk.ts) takes these types without importing what loads it. */

/** A running trace pipeline: `shutdown` exports what is still buffered and unregisters the SDK. */
export interface Tracing {
  protocol: OtlpProtocol;
  shutdown(): Promise<void>;
}

export type OtlpProtocol = 'http/protobuf' | 'http/json';
