import { describe, expect, it } from 'vitest';
import type { ProviderProgress } from '../../ports/image-provider.js';
import { lastProgressBar, steadyProgress } from './progress-reports.js';

describe('steadyProgress', () => {
  it('keeps fractions within 0..1 and never lets them go back, keeping the newer message', () => {
    const seen: ProviderProgress[] = [];
    const report = steadyProgress((progress) => seen.push(progress));
    report({ fraction: 0.4, message: 'step 2/5' });
    report({ fraction: 0.2, message: 'step 1/5 of the refiner' });
    report({ fraction: 7 });
    report({ fraction: -1, message: 'again' });
    report({ fraction: Number.NaN, message: 'nan' });
    expect(seen).toEqual([
      { fraction: 0.4, message: 'step 2/5' },
      { fraction: 0.4, message: 'step 1/5 of the refiner' },
      { fraction: 1 },
      { fraction: 1, message: 'again' },
      { fraction: 1, message: 'nan' },
    ]);
  });

  it('drops a report that repeats the one before, and words without any fraction yet', () => {
    const seen: ProviderProgress[] = [];
    const report = steadyProgress((progress) => seen.push(progress));
    report({ message: 'in queue at position 2' });
    report({ message: 'in queue at position 2' });
    report({ fraction: 0.5 });
    report({ fraction: 0.5 });
    expect(seen).toEqual([{ message: 'in queue at position 2' }, { fraction: 0.5 }]);
  });

  it("survives a listener that throws: the listener's failure is not the provider's", () => {
    const report = steadyProgress(() => {
      throw new Error('listener broke');
    });
    expect(() => report({ fraction: 0.1 })).not.toThrow();
  });
});

describe('lastProgressBar', () => {
  // As cog-flux's predictions log them on Replicate: a bar per step of diffusers' denoising loop.
  const log = [
    'Using seed: 42',
    'running quantized prediction',
    '  0%|          | 0/4 [00:00<?, ?it/s]',
    ' 25%|██▌       | 1/4 [00:00<00:00,  3.62it/s]',
    ' 50%|█████     | 2/4 [00:00<00:00,  3.65it/s]',
  ].join('\n');

  it('reads the counts of the last bar in the log', () => {
    expect(lastProgressBar(log)).toEqual({ current: 2, total: 4 });
  });

  it('reads bars that tqdm redrew with carriage returns on one line', () => {
    expect(lastProgressBar(' 45%|████▌     | 23/50 [00:04<00:05,  4.99it/s]\r 46%|████▌     | 24/50 [00:05<00:05,  4.99it/s]')).toEqual({
      current: 24,
      total: 50,
    });
  });

  it('finds nothing in a log without a bar, or one with nothing to count', () => {
    expect(lastProgressBar('Using seed: 42\nTotal safe images: 1 out of 1')).toBeUndefined();
    expect(lastProgressBar('0it [00:00, ?it/s]\n  0%|          | 0/0 [00:00<?, ?it/s]')).toBeUndefined();
    expect(lastProgressBar('')).toBeUndefined();
  });
});
