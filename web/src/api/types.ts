/**
 * The API's shapes as the app reads them, named from the types generated from /openapi.json (schema.d.ts,
 * by `npm run gen:api-types`): a change to the API shows up here as a type error, not as a surprise at run time.
 */
import type { components } from './schema.js';

type Schemas = components['schemas'];

export type AppConfig = Schemas['AppConfig'];
export type AuthMode = AppConfig['auth_mode'];
export type Me = Schemas['Me'];

/** A list's paging; lists that page by cursor (images) also say where the next page starts. */
export type Pagination = Schemas['Pagination'] & Partial<Pick<Schemas['ImagePagination'], 'next_cursor'>>;

export type Image = Schemas['Image'];
/** GET /api/images/{id}; the grid's record (without `derived_image_ids`) stands in for it until it loads. */
export type ImageDetail = Image & Partial<Pick<Schemas['ImageDetail'], 'derived_image_ids'>>;
export type ImageKind = Image['kind'];
export type ImageParameters = Schemas['ImageParameters'];

export type Model = Schemas['Model'];
export type GenerationParameter = Model['parameters'][number];

export type Template = Schemas['Template'];
export type Collection = Schemas['Collection'];

export type Generation = Schemas['Generation'];
export type GenerationStatus = Generation['status'];
export type GenerationList = Schemas['GenerationList'];

export type Batch = Schemas['Batch'];
export type BatchDetail = Schemas['BatchDetail'];
/**
 * A batch's prompt. `generation_id` names the generation job that runs it, where the server has one per prompt: the
 * app then follows that generation's events, and polls the batch otherwise (a prompt of an older batch has none until it runs).
 */
export type BatchItem = BatchDetail['items'][number];
export type WebhookDelivery = BatchDetail['webhook']['deliveries'][number];

export type ApiKey = Schemas['ApiKey'];
export type Permission = ApiKey['permissions'][number];
export type Plan = ApiKey['plan'];
/** PATCH /api/keys/{id}: only the fields to change; null clears a budget or the expiry. */
export type ApiKeyChanges = Schemas['UpdateApiKey'];
export type CreatedApiKey = Schemas['CreatedApiKey'];

export type UsageReport = Schemas['UsageReport'];
export type DayModelUsage = UsageReport['by_day_and_model'][number];
