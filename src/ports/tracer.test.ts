import { trace } from '@opentelemetry/api';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterEach, describe, expect, it } from 'vitest';
import { tracingEnabled } from './tracer.js';

describe('tracingEnabled', () => {
  afterEach(() => trace.disable());

  it('is off until a tracer provider is installed, and on once one is', () => {
    expect(tracingEnabled()).toBe(false);
    trace.setGlobalTracerProvider(new BasicTracerProvider());
    expect(tracingEnabled()).toBe(true);
  });
});
