import { z } from '@hono/zod-openapi';
import { PageQuerySchema, PaginationSchema } from '../../schemas.js';

const PermissionSchema = z.enum(['generate', 'read', 'manage']);
const PlanSchema = z.enum(['standard', 'pro', 'enterprise']);

export const ApiKeySchema = z
  .object({
    id: z.string().openapi({ example: 'key_01jc4x1q7z3m9r4f2k8t6v5w0y' }),
    name: z.string(),
    prefix: z.string().openapi({ description: 'First characters of the secret, to recognise the key', example: 'igk_live_Xq3v9a' }),
    user_id: z.string(),
    permissions: z.array(PermissionSchema),
    plan: PlanSchema,
    rate_limit: z.number().int().openapi({ description: 'Requests per minute' }),
    is_admin: z.boolean(),
    status: z.enum(['active', 'revoked', 'expired']),
    created_at: z.string(),
    expires_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
    last_used_at: z.string().nullable().openapi({ description: 'Updated at most once a minute' }),
    daily_budget_usd: z.number().nullable().openapi({ description: 'Spend limit per UTC day in USD; null for none' }),
    monthly_budget_usd: z.number().nullable().openapi({ description: 'Spend limit per UTC month in USD; null for none' }),
    spend: z
      .object({ today_usd: z.number(), this_month_usd: z.number() })
      .openapi({ description: "What this key's images cost this UTC day and month (deleted images included: they were paid for)" }),
  })
  .openapi('ApiKey');

export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().openapi({ description: 'The secret. Shown once, here; store it now.', example: 'igk_live_Xq3v9a...' }),
}).openapi('CreatedApiKey');

const budget = (name: string) =>
  z
    .number({ error: `${name}_budget_usd must be a number of USD, 0 or more, or null for none` })
    .min(0, `${name}_budget_usd must be 0 or more`)
    .max(1_000_000_000, `${name}_budget_usd must be at most 1000000000`)
    .nullable();

const keyName = z.string().trim().min(1, 'name must not be empty').max(100, 'name must be at most 100 characters').openapi({ example: 'ci' });
const rateLimit = z.number().int().min(1).max(1_000_000).openapi({ description: 'Requests per minute; enterprise only' });

export const CreateApiKeySchema = z
  .strictObject({
    name: keyName,
    permissions: z
      .array(PermissionSchema, { error: (issue) => (issue.input === undefined ? 'permissions is required: one or more of read, generate, manage' : undefined) })
      .min(1, 'permissions must list at least one of read, generate, manage')
      .openapi({ example: ['generate', 'read'] }),
    plan: PlanSchema.optional().openapi({ description: 'standard (100/min, default), pro (500/min), enterprise (rate_limit)' }),
    rate_limit: rateLimit.optional(),
    expires_at: z.iso.datetime({ offset: true }).optional().openapi({ example: '2027-01-01T00:00:00Z' }),
    daily_budget_usd: budget('daily')
      .optional()
      .openapi({ description: 'Refuse generations (402 BUDGET_EXCEEDED) that would take this UTC day past this many USD', example: 5 }),
    monthly_budget_usd: budget('monthly')
      .optional()
      .openapi({ description: 'Refuse generations that would take this UTC month past this many USD', example: 50 }),
    user_id: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .regex(/^[A-Za-z0-9._@-]+$/, 'user_id may use letters, digits and . _ @ -')
      .optional()
      .openapi({ description: 'Admin keys only: create the key for another user' }),
  })
  .openapi('CreateApiKey');

const updatable = {
  name: keyName.optional(),
  daily_budget_usd: budget('daily').optional().openapi({ description: 'USD per UTC day; null removes the budget', example: 2 }),
  monthly_budget_usd: budget('monthly').optional().openapi({ description: 'USD per UTC month; null removes the budget', example: 40 }),
  plan: PlanSchema.optional().openapi({ description: "At most the calling key's own plan" }),
  rate_limit: rateLimit.optional(),
  expires_at: z.iso
    .datetime({ offset: true })
    .nullable()
    .optional()
    .openapi({ description: 'A future time, or null for a key that does not expire', example: '2027-06-30T00:00:00Z' }),
};
const UPDATABLE = Object.keys(updatable).join(', ');

/**
 * Loose, then checked by hand: a strict object's refusal says "see /docs", and this one names the fields
 * that can be sent instead (a key's permissions and user are fixed at creation).
 */
export const UpdateApiKeySchema = z
  .looseObject(updatable)
  .superRefine((body, ctx) => {
    const unknown = Object.keys(body).filter((field) => !Object.hasOwn(updatable, field));
    for (const field of unknown) {
      ctx.addIssue({ code: 'custom', path: [field], message: `${field} is not something PATCH /api/keys/{id} can change; send one or more of ${UPDATABLE}` });
    }
    if (Object.keys(body).length === 0) ctx.addIssue({ code: 'custom', message: `must change something: send one or more of ${UPDATABLE}` });
  })
  // What the refinement above enforces, said in the published schema too.
  .openapi('UpdateApiKey', { additionalProperties: false, minProperties: 1 });

export const ListKeysQuerySchema = PageQuerySchema.extend({
  user_id: z
    .string()
    .optional()
    .openapi({ param: { description: "Admin keys only: another user's keys, or * for all" } }),
});

export const KeyListSchema = z.object({ keys: z.array(ApiKeySchema), pagination: PaginationSchema }).openapi('ApiKeyList');
export const KeyIdParamSchema = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });
export const RevokedKeySchema = z.object({ id: z.string(), revoked: z.literal(true), revoked_at: z.string() }).openapi('RevokedApiKey');
