import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createProceduralProvider } from '../../../src/adapters/providers/procedural/procedural-provider.js';
import { ProviderJobAbandoned, ProviderOutcomeUnknown, ProviderRefusal, ProviderUnavailable, type ImageProvider } from '../../../src/ports/image-provider.js';
import { createHarness, testCpuPool } from '../../../src/test-support/harness.js';
import { as, createKeyFor } from '../keys/key-helpers.js';

const MODEL = 'replicate/black-forest-labs/flux-schnell';
const PRICE = 0.003;
const cents = (usd: number) => Math.round(usd * 1e6);

/** How one call ends at the provider, and whether the provider bills it. */
const BEHAVIOURS = {
  succeed: true,
  refuse: false,
  'down-before-accepting': false,
  'lose-answer': true,
  'abandon-after-accepting': true,
} as const;
type Behaviour = keyof typeof BEHAVIOURS;

const request = fc.record({
  key: fc.nat({ max: 2 }),
  behaviour: fc.constantFrom(...(Object.keys(BEHAVIOURS) as Behaviour[])),
  delayMs: fc.nat({ max: 15 }),
});
const scenario = fc.record({
  budgets: fc.array(fc.option(fc.nat({ max: 6 }), { nil: null }), { minLength: 3, maxLength: 3 }),
  requests: fc.array(request, { minLength: 1, maxLength: 24 }),
});

describe('the ledger holds to what the provider billed', () => {
  it('settles to exactly what was billed, for any interleaving of generations, refusals, timeouts and lost answers, and no key spends past its budget', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ budgets, requests }) => {
        let billedUsd = 0;
        let calls = 0;
        const real = createProceduralProvider(testCpuPool());
        // Replicate's stand-in: the prompt says how each call ends, the delay interleaves them.
        const replicate: ImageProvider = {
          id: 'replicate',
          async generate(call, options) {
            calls += 1;
            const [behaviour, delay] = call.prompt.split(' ').slice(-2) as [Behaviour, string];
            await new Promise((resolve) => setTimeout(resolve, Number(delay)));
            if (BEHAVIOURS[behaviour]) billedUsd += PRICE;
            if (behaviour === 'refuse') throw new ProviderRefusal('refused');
            if (behaviour === 'down-before-accepting') throw new ProviderUnavailable('replicate answered 503', 503);
            if (behaviour === 'lose-answer') throw new ProviderOutcomeUnknown('connection reset after the request was sent', false);
            if (behaviour === 'abandon-after-accepting') throw new ProviderJobAbandoned('cancelled after the deadline', 504);
            return real.generate(call, options);
          },
        };
        const h = await createHarness({ providers: { replicate }, workers: false });
        try {
          const keys = await Promise.all(
            budgets.map((pictures, i) =>
              createKeyFor(h, { name: `k${i}`, permissions: ['generate', 'read'], ...(pictures === null ? {} : { daily_budget_usd: pictures * PRICE }) }),
            ),
          );
          await Promise.all(
            requests.map(({ key, behaviour, delayMs }, i) =>
              as(h, keys[key]?.key ?? '', 'POST', '/api/generate', { prompt: `call ${i} ${behaviour} ${delayMs}`, model: MODEL, width: 256, height: 256 }),
            ),
          );
          const { items } = await h.deps.db.charges.list('admin', {}, { limit: 100, offset: 0 });
          // One charge per provider call, none still reserved, and together exactly what the provider billed.
          expect(items).toHaveLength(calls);
          expect(items.filter((charge) => charge.outcome === 'reserved')).toEqual([]);
          expect(cents(items.reduce((sum, charge) => sum + charge.cost_usd, 0))).toBe(cents(billedUsd));
          for (const [i, pictures] of budgets.entries()) {
            if (pictures === null) continue;
            const spent = items.filter((charge) => charge.key_id === keys[i]?.id).reduce((sum, charge) => sum + charge.cost_usd, 0);
            expect(cents(spent)).toBeLessThanOrEqual(cents(pictures * PRICE));
          }
        } finally {
          await h.close();
        }
      }),
      { numRuns: Number(process.env.LEDGER_RUNS ?? 25) },
    );
  }, 120_000);
});
