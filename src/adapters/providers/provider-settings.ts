import { z } from 'zod';

/**
 * The environment variables one provider reads, each with its validation and message. src/config/ parses every
 * provider's with the rest of the environment (registry.ts merges them), so a bad one stops start-up naming it.
 */
export interface SettingsFragment<Shape extends z.ZodRawShape = z.ZodRawShape> {
  shape: Shape;
  /** Checks across its variables (two that are set together), run with the rest of the configuration's checks. */
  check?(env: SettingsOf<Shape>, ctx: z.RefinementCtx): void;
  /** The variables naming a file or folder: resolved as the runtime resolves paths (absolute on Node). */
  paths?: readonly (keyof Shape & string)[];
}

/**
 * The settings a fragment gives, as parsed. zod types those of a fragment of no variables as Record<string, never>,
 * which no provider's settings fit; `object` fits them all.
 */
export type SettingsOf<Shape extends z.ZodRawShape> = keyof Shape extends never ? object : z.output<z.ZodObject<Shape>>;

export const defineSettings = <Shape extends z.ZodRawShape>(fragment: SettingsFragment<Shape>): SettingsFragment<Shape> => fragment;

/** Unset and blank are the same: not set. */
export const optionalSetting = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/** An http(s) address with a default (the provider's public API), without trailing slashes. */
export const baseUrlSetting = (fallback: string) =>
  z
    .url({ protocol: /^https?$/ })
    .default(fallback)
    .transform((url) => url.replace(/\/+$/, ''));

/** An http(s) address with no default (a server of your own), without trailing slashes. */
export const optionalUrlSetting = optionalSetting.pipe(
  z
    .url({ protocol: /^https?$/ })
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
);
