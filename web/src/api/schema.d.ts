/**
 * Generated from /openapi.json by `npm run gen:api-types` (scripts/gen-api-types.ts): do not edit.
 * Run it again after changing a route or schema; test/browser/api-types.test.ts fails until you do.
 */

export interface paths {
    "/api/generate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Generate an image from a prompt
         * @description Runs the prompt on the chosen model as a durable job, stores the image and records it. Every call creates a new image, unless it carries an `Idempotency-Key` already used in the last 24 hours: then the first answer is replayed with `Idempotent-Replayed: true`. A deprecated model answers with `Deprecation`, `Sunset` and a `Link` to its replacement.
         *
         *     The job runs to its end whether or not the caller is still connected: a caller who hangs up never stops a paid provider call, and finds the image in the gallery or at `GET /api/generations/{id}`.
         *
         *     `Prefer` (RFC 7240): none waits for the image and answers 201 (the spec's contract); `respond-async` answers 202 at once with the generation and `Location`; `wait=N` (1 to 60 s) answers 201 if the image is ready within N seconds, else 202. `Preference-Applied` says which was honoured.
         */
        post: operations["generateImage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/images": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your images, newest first (soft-deleted ones are hidden); search by prompt, filter by model, kind (uploads), lineage and date */
        get: operations["listImages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/images/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one image, with the images made from it (derived_image_ids) */
        get: operations["getImage"];
        put?: never;
        post?: never;
        /**
         * Soft-delete an image
         * @description The record is kept (`is_deleted: true`) and still counts in cost analytics; list and get stop showing it, and it can no longer be an input image. Its file and thumbnails are removed from storage at once, so its URLs stop answering; if storage fails just then the delete still succeeds (`files_removed: false`) and the periodic storage sweep removes them.
         */
        delete: operations["deleteImage"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload an image into the gallery (PNG, JPEG or WebP), to edit or use as a reference
         * @description Multipart field `file`, up to 50 MB and 8192 x 8192 pixels. The answer is an image record with `kind: "upload"`, cost 0, model `upload` and the file's name as its prompt (a file sent without a name, or as `blob`, is named by its role, type and time, e.g. `upload-2026-11-27T09-00-00.png`); pass its id in `image_ids` or `mask_image_id` of POST /api/generate. The file is stored byte for byte. The same bytes uploaded again by the same user answer the image already stored (same id), made a listed `file` if it was an input or mask and `role` is `file`.
         */
        post: operations["uploadImage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/generations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's generations, newest first, optionally of one status */
        get: operations["listGenerations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/generations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one generation: its status, queue position or progress, and its image once done */
        get: operations["getGeneration"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/generations/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a generation: a queued one is never charged; a running one is stopped at its provider
         * @description Takes no input: send no body, or a JSON `{}`. A queued generation answers `cancelled` at once. A running one answers `running` and is stopped by the worker that runs it within moments (follow it, or GET it again); its charge settles as the provider bills a call cut off there.
         */
        post: operations["cancelGeneration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/generations/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A generation's events as Server-Sent Events, from its current state to its end
         * @description The first event is the current state (`generation.queued`, `generation.started`, or the final one), carrying the whole generation; then `generation.progress` (`{ progress, message? }`: 0 to 1, never going back, at most 4 a second) where the provider reports it, `generation.partial_image` (`{ index, b64_json }`) where the model streams them, and one of `generation.completed` (`{ image }`), `generation.failed` or `generation.cancelled` (`{ error }`), after which the stream ends. A client that reconnects (with or without `Last-Event-ID`) gets the current state first, then the latest partial image of a running generation, so nothing it missed is needed.
         */
        get: operations["streamGenerationEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/collections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your collections, newest first */
        get: operations["listCollections"];
        put?: never;
        /** Create a collection */
        post: operations["createCollection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/collections/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a collection */
        get: operations["getCollection"];
        put?: never;
        post?: never;
        /** Delete a collection (its images stay in your gallery) */
        delete: operations["deleteCollection"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/collections/{id}/images": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the images in a collection, most recently added first */
        get: operations["listCollectionImages"];
        put?: never;
        /**
         * Add one of your images to a collection
         * @description Idempotent: 201 when added, 200 when the image was already in the collection.
         */
        post: operations["addImageToCollection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/collections/{id}/images/{image_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove an image from a collection (the image itself stays) */
        delete: operations["removeImageFromCollection"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the model catalogue with costs and availability */
        get: operations["listModels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/models/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one model; the id may be URL-encoded or given with its slashes raw */
        get: operations["getModel"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your templates and the pre-loaded samples, newest first */
        get: operations["listTemplates"];
        put?: never;
        /** Save generation settings as a template */
        post: operations["createTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a template (yours or a sample) */
        get: operations["getTemplate"];
        /** Update a template (samples are read-only: 403) */
        put: operations["updateTemplate"];
        post?: never;
        /** Delete a template (samples are read-only: 403) */
        delete: operations["deleteTemplate"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your image counts and costs, with breakdowns by model and by UTC day */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/costs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your total and average cost, with breakdowns by model and by UTC day (of one key with `key_id`), and what the ledger recorded without an image */
        get: operations["getCosts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/charges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The charge ledger: every provider call that may have cost money, newest first, with its outcome and cost */
        get: operations["listCharges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/batch/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a batch of prompts
         * @description Validates every prompt, the model and the webhook URL, then queues the prompts and answers at once. Both batch paths are the same operation; `name` is optional on /api/batch/generate.
         */
        post: operations["createBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/batch/generate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Generate several prompts in one call (same as /api/batch/create)
         * @description Validates every prompt, the model and the webhook URL, then queues the prompts and answers at once. Both batch paths are the same operation; `name` is optional on /api/batch/generate.
         */
        post: operations["generateBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your batches, newest first */
        get: operations["listBatches"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/batch/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A batch with its images so far, per-prompt errors and webhook delivery state */
        get: operations["getBatch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/batch/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a batch: pending prompts are dropped, finished images stay
         * @description Takes no input: send no body (any Content-Type), or a JSON `{}`.
         */
        post: operations["cancelBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The Standard Webhooks signing secret (manage permission) */
        get: operations["getWebhookSecret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who you are: your user, your permissions, and your key with its plan, limits, budgets and spend
         * @description Any key may ask, whatever its permissions, so a client can show only what the key may do.
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/images/generations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * OpenAI's image generation endpoint: each image is a normal imagegate image (stored, costed, in the gallery)
         * @description Point an OpenAI SDK at `<server>/v1` with an imagegate API key. The answer holds the images as `b64_json` unless `response_format: url` asks for each image's `r2_url`. Errors come in OpenAI's shape. Every field OpenAI defines is honoured or refused with a 400 naming it: `quality`, `background`, `output_format` and `output_compression` as the model can (GET /api/models), `moderation` where the provider takes it. `stream: true` answers text/event-stream in OpenAI's format: `image_generation.partial_image` events as OpenAI's GPT image models draw them (with `partial_images`), then an `image_generation.completed` event per image, with `usage`. DALL-E's `style` and `quality: hd` are mapped or left aside with a `Warning` header.
         */
        post: operations["openAiCreateImage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/images/edits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * OpenAI's image edit endpoint: the files become uploads in the gallery, each image made from them a normal imagegate image
         * @description Multipart, as OpenAI's SDKs send `images.edit()`: `image` (one file, repeated, `image[]` or `image[0]`, `image[1]`...; up to 16, as the model takes: inputs.max_images in GET /api/models), `mask` (transparent = change, the first image's size), `prompt` and OpenAI's other fields; files up to 50 MB in all. Each file is stored as an upload (kind `upload`, upload_role `input` or `mask`: listed with GET /api/images?kind=upload, not in the default list; the same bytes sent again are the upload already stored), and each image made has them in `source_image_ids`. Without size, an image keeps the input's size where the model can make it. The images come as `b64_json` unless `response_format: url` asks for each `r2_url`. `stream: true` answers text/event-stream in OpenAI's format: `image_edit.partial_image` events as OpenAI's GPT image models draw them (with `partial_images`), then an `image_edit.completed` event per image, with `usage`. A refused request stores nothing.
         */
        post: operations["openAiEditImage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/images/variations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * OpenAI's image variation endpoint, for models that do image-to-image with a strength
         * @description A model can make variations when it takes an image with a strength (inputs.strength in GET /api/models); any other model is refused with a 400 naming `model`. A variation is an image-to-image of `image` (a PNG, JPEG or WebP up to 50 MB, stored as an upload with upload_role `input`, once per distinct file) at the model's default strength, with the prompt "a variation of this image", since OpenAI's variations have no prompt and every generation here needs one; each image is a normal imagegate image with the upload in `source_image_ids`. Without size, it keeps the input's size where the model can make it. A refused request stores nothing.
         */
        post: operations["openAiCreateImageVariation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The models that can generate here, in OpenAI's list shape (GET /api/models has the whole catalogue with prices) */
        get: operations["openAiListModels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/models/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One model in OpenAI's shape; the id may be URL-encoded or given with its slashes raw */
        get: operations["openAiRetrieveModel"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your user's keys (never their secrets) */
        get: operations["listApiKeys"];
        put?: never;
        /** Create an API key (the secret is in `key`, shown once) */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a key; it answers 401 from then on
         * @description A key cannot revoke itself, and the key set by ADMIN_API_KEY is managed by the environment: both answer 409.
         */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        /**
         * Change a key's name, budgets, plan, rate limit or expiry; it applies from the next request
         * @description Send only the fields to change; null clears a budget or the expiry. A key may set only what it could create: its own plan and limit at most, and a key with a budget cannot raise or clear it (403). A revoked key and the key set by ADMIN_API_KEY answer 409.
         */
        patch: operations["updateApiKey"];
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness: the process is up; needs no key
         * @description Answers 200 while the process runs, even when the database is out: restarting the process would not bring it back. Readiness is `/health/ready`.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness for a Kubernetes livenessProbe: the process runs; needs no key
         * @description The same answer as `/health`: 200 while the process runs, whatever its dependencies do (a restart would not bring them back).
         */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness for a Kubernetes readinessProbe: the database answers, storage takes a write and a delete (checked at most every 5 s), Redis answers; needs no key
         * @description Each dependency must answer within 2000 ms. A load balancer stops sending traffic on 503; `checks` names what failed.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/app/config.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How the web app should talk to this server (its access mode); needs no key */
        get: operations["getAppConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Image: {
            /** @example img_01jc4x1q7z3m9r4f2k8t6v5w0y */
            id: string;
            prompt: string;
            /** @example local/procedural */
            model: string;
            /** @example generated/img_01jc4x1q7z3m9r4f2k8t6v5w0y.png */
            r2_key: string;
            /** @example http://localhost:8787/files/generated/img_01jc4x1q7z3m9r4f2k8t6v5w0y.png */
            r2_url: string;
            width: number;
            height: number;
            /** @example 2026-11-23T10:00:00.000Z */
            created_at: string;
            user_id: string;
            /** @description USD */
            cost: number;
            is_deleted: boolean;
            template_id: string | null;
            parameters: components["schemas"]["ImageParameters"];
            metadata: {
                [key: string]: unknown;
            } | null;
            /**
             * @description generated by a model, or an upload (POST /api/uploads; cost 0, model "upload")
             * @enum {string}
             */
            kind: "generated" | "upload";
            /**
             * @description Why an upload was stored: file (uploaded on purpose), input (an image an edit or variation sent with its request) or mask (sent with an edit, or painted in the web app); null for generated images. Inputs and masks are listed only with kind=upload
             * @enum {string|null}
             */
            upload_role: "file" | "input" | "mask" | null;
            /** @description Lineage: the images this one was made from, in the order given (empty for text-to-image) */
            source_image_ids: string[];
            thumbnails: components["schemas"]["ImageThumbnails"];
        };
        /** @description Generation parameters actually used */
        ImageParameters: {
            width?: number | string;
            height?: number | string;
            seed?: number | string;
            negative_prompt?: number | string;
            steps?: number | string;
            guidance?: number | string;
            strength?: number | string;
            quality?: number | string;
            background?: number | string;
            output_format?: number | string;
            output_compression?: number | string;
            input_fidelity?: number | string;
            mask_image_id?: number | string;
            /** @description A batch's input images, given to every prompt */
            image_ids?: string[];
        };
        /** @description Previews for galleries (e.g. an img srcset of 256w, 768w and r2_url); null for images stored before thumbnails existed */
        ImageThumbnails: {
            /**
             * @description WebP, 256 px on the long side (smaller images keep their size)
             * @example http://localhost:8787/files/thumbnails/img_01jc4x1q7z3m9r4f2k8t6v5w0y-256.webp
             */
            small: string;
            /**
             * @description WebP, 768 px on the long side (smaller images keep their size)
             * @example http://localhost:8787/files/thumbnails/img_01jc4x1q7z3m9r4f2k8t6v5w0y-768.webp
             */
            medium: string;
        } | null;
        Generation: {
            /** @example gen_01jd5x4yq8r2b9c3d4e5f6g7h8 */
            id: string;
            /**
             * @description queued, then running, then succeeded, failed or cancelled
             * @enum {string}
             */
            status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
            model: string;
            prompt: string;
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
            /** @description While queued: how many generations will start before this one */
            queue_position?: number;
            /** @description 0 to 1, where the provider reports progress */
            progress?: number;
            /** @description The id its image has (or will have) in the gallery */
            image_id: string;
            image?: components["schemas"]["Image"] & unknown;
            /** @description Once failed or cancelled: the error a waiting caller got */
            error?: {
                error: string;
                code: string;
                details?: unknown;
            };
            /** @description When deadline_seconds was given: still queued at this time, the generation is cancelled without running */
            deadline_at?: string;
            /** @description When it runs a batch's prompt: the batch */
            batch_id?: string;
            /** @description When it runs a batch's prompt: the prompt's index in the batch */
            batch_index?: number;
        };
        Error: {
            /** @example Invalid prompt */
            error: string;
            details?: {
                [key: string]: unknown;
            } | string;
            /** @example INVALID_PARAMETER */
            code: string;
        };
        GenerateRequest: {
            /**
             * @description At least 3 and at most 4,000 characters after trimming; optional with template_id
             * @example a lighthouse on a cliff at sunset
             */
            prompt?: string;
            /**
             * @description Model id from GET /api/models; optional with template_id
             * @example local/procedural
             */
            model?: string;
            /** @description Use a template's model, prompt and parameters; fields in the request win */
            template_id?: string;
            /** @description Custom data attached to the image */
            metadata?: {
                [key: string]: unknown;
            };
            /**
             * Format: uri
             * @description Receives the events named in webhook_events, each signed (Standard Webhooks) and retried as batch webhooks are; the delivery log is in GET /api/generations/{id}
             * @example https://example.com/hooks/imagegate
             */
            webhook_url?: string;
            /**
             * @description Which events go to webhook_url, one delivery each; default generation.completed and generation.failed
             * @example [
             *       "generation.completed",
             *       "generation.failed"
             *     ]
             */
            webhook_events?: ("generation.started" | "generation.completed" | "generation.failed" | "generation.cancelled")[];
            /**
             * @description Still queued this many seconds after it was accepted, the generation is cancelled (status cancelled, code GENERATION_CANCELLED) without calling the provider or charging anything. A generation already running is not stopped by its deadline: its provider may already bill it.
             * @example 300
             */
            deadline_seconds?: number;
            /**
             * @description Partial images while the model draws, sent as the generation's generation.partial_image events (GET /api/generations/{id}/events) and never stored; for models whose outputs.partial_images is true (OpenAI's GPT image models, which bill output tokens for each; the recorded cost is what OpenAI reports); other models draw none
             * @example 2
             */
            partial_images?: number;
            /** @description Gallery images to give the model (uploads or earlier generations); the first is the one edited. Up to the model's inputs.max_images */
            image_ids?: string[];
            /** @description A PNG or WebP the size of the first image whose fully transparent pixels mark the area to change (OpenAI semantics); for models whose inputs.mask is true */
            mask_image_id?: string;
            /**
             * @description Pixels; each model's own range applies (`min_size`, `max_width` in GET /api/models)
             * @example 512
             */
            width?: number;
            /**
             * @description Pixels; each model's own range applies (`min_size`, `max_height`)
             * @example 512
             */
            height?: number;
            /** @description Same prompt and seed give the same image on deterministic models */
            seed?: number;
            negative_prompt?: string;
            steps?: number;
            guidance?: number;
            /** @description Image-to-image: how far the result may move from the first input image, 0 (keep it) to 1 (ignore it); for models whose inputs.strength is true */
            strength?: number;
            /**
             * @description For models that list quality levels (outputs.quality in GET /api/models); priced per quality where the provider does. auto: the model's default
             * @enum {string}
             */
            quality?: "low" | "medium" | "high" | "auto";
            /**
             * @description transparent needs a model with outputs.transparent_background and png or webp; opaque flattens any transparency onto white
             * @enum {string}
             */
            background?: "transparent" | "opaque" | "auto";
            /**
             * @description The stored file's format (default png); r2_key ends in .png, .jpg or .webp
             * @enum {string}
             */
            output_format?: "png" | "jpeg" | "webp";
            /** @description jpeg and webp quality, 0 to 100 (100 keeps the most detail) */
            output_compression?: number;
            /**
             * @description OpenAI gpt-image edits: how closely the result keeps the input's faces and details
             * @enum {string}
             */
            input_fidelity?: "low" | "high";
        };
        ImageList: {
            images: components["schemas"]["Image"][];
            pagination: components["schemas"]["ImagePagination"];
        };
        ImagePagination: components["schemas"]["Pagination"] & {
            /** @description Pass as `cursor` for the next page; null on the last page */
            next_cursor: string | null;
        };
        Pagination: {
            limit: number;
            offset: number;
            total: number;
            has_more: boolean;
        };
        ImageDetail: components["schemas"]["Image"] & {
            /** @description Images made from this one (newest first, at most 100); GET /api/images?derived_from=<id> pages through all */
            derived_image_ids: string[];
        };
        DeletedImage: {
            id: string;
            /** @enum {boolean} */
            deleted: true;
            /**
             * @description The record is kept, marked deleted: it still counts in cost analytics
             * @enum {boolean}
             */
            is_deleted: true;
            deleted_at: string;
            /** @description The original and its thumbnails are removed from storage, so their URLs no longer answer. False when storage failed just then: the periodic storage sweep removes them */
            files_removed: boolean;
            /** @description What happened, in words */
            message: string;
        };
        UploadForm: {
            /** Format: binary */
            file: Blob;
            /**
             * @description What the file is for, kept as the record's upload_role: file (the default) is listed in the gallery; input (an image to edit) and mask are listed only with GET /api/images?kind=upload, as the inputs and masks of /v1/images/edits are
             * @example mask
             * @enum {string}
             */
            role?: "file" | "input" | "mask";
        };
        GenerationList: {
            generations: components["schemas"]["Generation"][];
            pagination: components["schemas"]["Pagination"];
        };
        GenerationDetail: components["schemas"]["Generation"] & {
            /** @description When the generation was given a webhook_url: where its events go, and how each delivery went */
            webhook?: {
                url: string;
                events: ("generation.started" | "generation.completed" | "generation.failed" | "generation.cancelled")[];
                /** @description One per event sent, with every attempt */
                deliveries: {
                    /** @description The webhook-id header, the same on every attempt */
                    id: string;
                    event: string;
                    url: string;
                    /** @enum {string} */
                    status: "pending" | "delivered" | "failed" | "stopped";
                    attempt_count: number;
                    next_attempt_at: string | null;
                    attempts: {
                        attempt: number;
                        at: string;
                        status_code: number | null;
                        error: string | null;
                        duration_ms: number;
                    }[];
                }[];
            };
        };
        CollectionList: {
            collections: components["schemas"]["Collection"][];
            pagination: components["schemas"]["Pagination"];
        };
        Collection: {
            /** @example coll_01jc4x1q7z3m9r4f2k8t6v5w0y */
            id: string;
            name: string;
            description: string;
            user_id: string;
            /** @description Live (not deleted) images in the collection */
            image_count: number;
            /** @description Public URL of the image added last, for a cover thumbnail; null when the collection is empty */
            cover_image_url: string | null;
            created_at: string;
            updated_at: string;
        };
        CreateCollection: {
            /** @example Moodboard */
            name: string;
            /** @example Ideas for the spring campaign */
            description?: string;
        };
        DeletedCollection: {
            id: string;
            /** @enum {boolean} */
            deleted: true;
        };
        CollectionImages: {
            collection_id: string;
            images: components["schemas"]["Image"][];
            pagination: components["schemas"]["Pagination"];
        };
        CollectionMembership: {
            collection_id: string;
            image_id: string;
            added: boolean;
        };
        AddImageToCollection: {
            image_id: string;
        };
        ModelList: {
            models: components["schemas"]["Model"][];
            pagination: components["schemas"]["Pagination"];
        };
        Model: {
            /** @example @cf/black-forest-labs/flux-1-schnell */
            id: string;
            name: string;
            /** @example workers-ai */
            provider: string;
            /**
             * @description The provider's name as people say it
             * @example Cloudflare Workers AI
             */
            provider_name: string;
            provider_model: string;
            description: string;
            /** @description USD per image at default settings */
            cost_per_image: number;
            available: boolean;
            unavailable_reason?: string;
            /** @enum {string} */
            speed: "fast" | "medium" | "slow";
            /** @enum {string} */
            quality: "draft" | "standard" | "high";
            typical_seconds: number;
            default_width: number;
            default_height: number;
            min_size: number;
            max_width: number;
            max_height: number;
            /** @description When present, the only sizes (WIDTHxHEIGHT) the model makes */
            sizes?: string[];
            default_steps?: number;
            max_steps?: number;
            parameters: ("width" | "height" | "seed" | "negative_prompt" | "steps" | "guidance")[];
            /** @description Limits on width x height beyond the range: multiples, pixel count, longest side over shortest */
            size_rule?: {
                multiple_of?: number;
                min_pixels?: number;
                max_pixels?: number;
                max_aspect_ratio?: number;
            };
            inputs: components["schemas"]["ModelInputs"];
            outputs: components["schemas"]["ModelOutputs"];
            pricing: components["schemas"]["PricingRule"];
            pricing_source: string;
            /**
             * @description A shut-down model is listed (old images name it) but cannot generate
             * @enum {string}
             */
            lifecycle: "active" | "deprecated" | "shut_down";
            /** @example 2026-06-02 */
            deprecated_at?: string;
            /** @example 2026-12-01 */
            shutdown_at?: string;
            /**
             * @description The model to use instead
             * @example openai/gpt-image-2
             */
            replacement?: string;
            /** @description Set for a deprecated or shut-down model */
            warning?: string;
            /** @enum {string} */
            user_id: "system";
        };
        /** @description What it takes in; a request with more is refused before any call */
        ModelInputs: {
            /** @description Input images it takes (image_ids); 0 for a text-only model */
            max_images: number;
            /** @description It inpaints from mask_image_id */
            mask: boolean;
            /** @description It does image-to-image with a strength 0..1 */
            strength: boolean;
            /** @description It takes OpenAI's input_fidelity */
            input_fidelity?: boolean;
        };
        ModelOutputs: {
            /** @description output_format values (the service converts) */
            formats: ("png" | "jpeg" | "webp")[];
            /** @description It takes background: transparent */
            transparent_background: boolean;
            /** @description quality levels it takes besides auto; empty when fixed */
            quality: ("low" | "medium" | "high")[];
            /** @description It streams partial images */
            partial_images: boolean;
        };
        /** @description How one image is billed; `cost_per_image` applies it at default settings */
        PricingRule: {
            /** @enum {string} */
            kind: "free";
        } | {
            /** @enum {string} */
            kind: "per_image";
            usd: number;
        } | {
            /** @enum {string} */
            kind: "tiles_and_steps";
            usd_per_tile: number;
            tile_px: number;
            usd_per_step: number;
        } | {
            /** @enum {string} */
            kind: "per_tile_step";
            usd_per_tile_step: number;
            tile_px: number;
        } | {
            /** @enum {string} */
            kind: "per_megapixel";
            usd_per_megapixel: number;
            round_up: boolean;
            /** @description Pixels in one billed megapixel (1048576 = 1024x1024 for fal and Black Forest Labs) */
            megapixel_px: number;
            first_megapixel_usd?: number;
            /** @description Input images billed per megapixel too */
            input_usd_per_megapixel?: number;
        } | {
            /** @enum {string} */
            kind: "by_size";
            prices: {
                [key: string]: number;
            };
            default_usd: number;
        } | {
            /** @enum {string} */
            kind: "tokens";
            /** @enum {string} */
            quality: "low" | "medium" | "high";
            usd_per_million: {
                text_input: number;
                image_input: number;
                image_output: number;
                text_output: number;
            };
        };
        TemplateList: {
            templates: components["schemas"]["Template"][];
            pagination: components["schemas"]["Pagination"];
        };
        Template: {
            /** @example tmpl_01jc4x1q7z3m9r4f2k8t6v5w0y */
            id: string;
            name: string;
            model: string;
            default_prompt: string;
            parameters: components["schemas"]["ImageParameters"];
            /** @description `system` for the read-only samples */
            user_id: string;
            is_sample: boolean;
            created_at: string;
            updated_at: string;
        };
        CreateTemplate: {
            /** @example Product shot */
            name: string;
            /** @example local/procedural */
            model: string;
            /** @example studio photo of a ceramic mug */
            default_prompt: string;
            /** @description Saved generation settings (width, height, seed, negative_prompt, steps, guidance) */
            parameters?: {
                /**
                 * @description Pixels; each model's own range applies (`min_size`, `max_width` in GET /api/models)
                 * @example 512
                 */
                width?: number;
                /**
                 * @description Pixels; each model's own range applies (`min_size`, `max_height`)
                 * @example 512
                 */
                height?: number;
                /** @description Same prompt and seed give the same image on deterministic models */
                seed?: number;
                negative_prompt?: string;
                steps?: number;
                guidance?: number;
                /** @description Image-to-image: how far the result may move from the first input image, 0 (keep it) to 1 (ignore it); for models whose inputs.strength is true */
                strength?: number;
                /**
                 * @description For models that list quality levels (outputs.quality in GET /api/models); priced per quality where the provider does. auto: the model's default
                 * @enum {string}
                 */
                quality?: "low" | "medium" | "high" | "auto";
                /**
                 * @description transparent needs a model with outputs.transparent_background and png or webp; opaque flattens any transparency onto white
                 * @enum {string}
                 */
                background?: "transparent" | "opaque" | "auto";
                /**
                 * @description The stored file's format (default png); r2_key ends in .png, .jpg or .webp
                 * @enum {string}
                 */
                output_format?: "png" | "jpeg" | "webp";
                /** @description jpeg and webp quality, 0 to 100 (100 keeps the most detail) */
                output_compression?: number;
                /**
                 * @description OpenAI gpt-image edits: how closely the result keeps the input's faces and details
                 * @enum {string}
                 */
                input_fidelity?: "low" | "high";
            };
        };
        /** @description Any subset of the fields; the others keep their values */
        UpdateTemplate: {
            /** @example Product shot */
            name?: string;
            /** @example local/procedural */
            model?: string;
            /** @example studio photo of a ceramic mug */
            default_prompt?: string;
            /** @description Saved generation settings (width, height, seed, negative_prompt, steps, guidance) */
            parameters?: {
                /**
                 * @description Pixels; each model's own range applies (`min_size`, `max_width` in GET /api/models)
                 * @example 512
                 */
                width?: number;
                /**
                 * @description Pixels; each model's own range applies (`min_size`, `max_height`)
                 * @example 512
                 */
                height?: number;
                /** @description Same prompt and seed give the same image on deterministic models */
                seed?: number;
                negative_prompt?: string;
                steps?: number;
                guidance?: number;
                /** @description Image-to-image: how far the result may move from the first input image, 0 (keep it) to 1 (ignore it); for models whose inputs.strength is true */
                strength?: number;
                /**
                 * @description For models that list quality levels (outputs.quality in GET /api/models); priced per quality where the provider does. auto: the model's default
                 * @enum {string}
                 */
                quality?: "low" | "medium" | "high" | "auto";
                /**
                 * @description transparent needs a model with outputs.transparent_background and png or webp; opaque flattens any transparency onto white
                 * @enum {string}
                 */
                background?: "transparent" | "opaque" | "auto";
                /**
                 * @description The stored file's format (default png); r2_key ends in .png, .jpg or .webp
                 * @enum {string}
                 */
                output_format?: "png" | "jpeg" | "webp";
                /** @description jpeg and webp quality, 0 to 100 (100 keeps the most detail) */
                output_compression?: number;
                /**
                 * @description OpenAI gpt-image edits: how closely the result keeps the input's faces and details
                 * @enum {string}
                 */
                input_fidelity?: "low" | "high";
            };
        };
        DeletedTemplate: {
            id: string;
            /** @enum {boolean} */
            deleted: true;
        };
        UsageReport: {
            user_id: string;
            from: string | null;
            to: string | null;
            /** @description Images generated in the range, deleted ones included */
            total_images: number;
            active_images: number;
            deleted_images: number;
            total_cost: number;
            by_model: {
                model: string;
                images: number;
                cost: number;
                deleted_images: number;
            }[];
            by_day: {
                date: string;
                images: number;
                cost: number;
                deleted_images: number;
            }[];
            /** @description Each UTC day split by model (days in order, then models by id): enough to draw a chart stacked by model */
            by_day_and_model: {
                date: string;
                model: string;
                images: number;
                cost: number;
                deleted_images: number;
            }[];
        };
        CostReport: {
            /** @description USD, soft-deleted images included */
            total_cost: number;
            total_images: number;
            /** @description USD per image; 0 when there are no images */
            average_cost: number;
            /** @enum {string} */
            currency: "USD";
            from: string | null;
            to: string | null;
            /** @description The key the report is limited to (`?key_id=`), or null for all your keys */
            key_id: string | null;
            by_model: {
                model: string;
                images: number;
                cost: number;
                average_cost: number;
            }[];
            by_day: {
                date: string;
                images: number;
                cost: number;
                average_cost: number;
            }[];
            /** @description From the charge ledger: paid calls that left no image (included in the costs above), calls whose outcome is unknown (included, at their estimate), and reservations still running (not included yet) */
            ledger: {
                charged_without_image: components["schemas"]["LedgerTotal"];
                uncertain: components["schemas"]["LedgerTotal"];
                in_flight: components["schemas"]["LedgerTotal"];
            };
        };
        LedgerTotal: {
            charges: number;
            cost: number;
        };
        ChargeList: {
            charges: components["schemas"]["Charge"][];
            pagination: components["schemas"]["Pagination"];
        };
        Charge: {
            id: string;
            key_id: string | null;
            /** @description The image the call made; null unless the outcome is `succeeded` */
            image_id: string | null;
            model: string;
            provider: string;
            /** @description The provider's own id for the job (a Replicate prediction), when it has one */
            provider_job_id: string | null;
            /** @description USD, the catalogue estimate reserved before the call */
            estimated_cost: number;
            /** @description USD it counts for: the estimate while reserved or uncertain, what it cost once settled, 0 when not charged */
            cost: number;
            /**
             * @description `reserved`: running; `succeeded`: image made; `not_charged`: refused or failed before the provider accepted it; `charged_no_image`: accepted and billed, but no image (cancelled, timed out); `uncertain`: the answer was lost after the request was sent, so the provider may have billed it
             * @enum {string}
             */
            outcome: "reserved" | "succeeded" | "not_charged" | "charged_no_image" | "uncertain";
            error: string | null;
            created_at: string;
            settled_at: string | null;
        };
        Batch: {
            /** @example batch_01jc4x1q7z3m9r4f2k8t6v5w0y */
            id: string;
            batch_id: string;
            name: string;
            model: string;
            template_id: string | null;
            parameters: components["schemas"]["ImageParameters"];
            /** @enum {string} */
            status: "queued" | "processing" | "completed" | "cancelled";
            total_prompts: number;
            completed_count: number;
            failed_count: number;
            webhook_url: string | null;
            created_at: string;
            updated_at: string;
            finished_at: string | null;
        };
        CreateBatch: {
            /** @example Spring campaign */
            name: string;
            /**
             * @description Each checked like a /api/generate prompt; at most BATCH_MAX_PROMPTS (default 100)
             * @example [
             *       "a red fox",
             *       "a blue whale"
             *     ]
             */
            prompts: string[];
            /** @example local/procedural */
            model?: string;
            template_id?: string;
            /**
             * Format: uri
             * @description Receives the signed batch.completed (or batch.cancelled) event
             * @example https://example.com/hooks/imagegate
             */
            webhook_url?: string;
            /** @description Gallery images to give the model (uploads or earlier generations); the first is the one edited. Up to the model's inputs.max_images */
            image_ids?: string[];
            /** @description A PNG or WebP the size of the first image whose fully transparent pixels mark the area to change (OpenAI semantics); for models whose inputs.mask is true */
            mask_image_id?: string;
            /**
             * @description Pixels; each model's own range applies (`min_size`, `max_width` in GET /api/models)
             * @example 512
             */
            width?: number;
            /**
             * @description Pixels; each model's own range applies (`min_size`, `max_height`)
             * @example 512
             */
            height?: number;
            /** @description Same prompt and seed give the same image on deterministic models */
            seed?: number;
            negative_prompt?: string;
            steps?: number;
            guidance?: number;
            /** @description Image-to-image: how far the result may move from the first input image, 0 (keep it) to 1 (ignore it); for models whose inputs.strength is true */
            strength?: number;
            /**
             * @description For models that list quality levels (outputs.quality in GET /api/models); priced per quality where the provider does. auto: the model's default
             * @enum {string}
             */
            quality?: "low" | "medium" | "high" | "auto";
            /**
             * @description transparent needs a model with outputs.transparent_background and png or webp; opaque flattens any transparency onto white
             * @enum {string}
             */
            background?: "transparent" | "opaque" | "auto";
            /**
             * @description The stored file's format (default png); r2_key ends in .png, .jpg or .webp
             * @enum {string}
             */
            output_format?: "png" | "jpeg" | "webp";
            /** @description jpeg and webp quality, 0 to 100 (100 keeps the most detail) */
            output_compression?: number;
            /**
             * @description OpenAI gpt-image edits: how closely the result keeps the input's faces and details
             * @enum {string}
             */
            input_fidelity?: "low" | "high";
        };
        GenerateBatch: {
            name?: string;
            /**
             * @description Each checked like a /api/generate prompt; at most BATCH_MAX_PROMPTS (default 100)
             * @example [
             *       "a red fox",
             *       "a blue whale"
             *     ]
             */
            prompts: string[];
            /** @example local/procedural */
            model?: string;
            template_id?: string;
            /**
             * Format: uri
             * @description Receives the signed batch.completed (or batch.cancelled) event
             * @example https://example.com/hooks/imagegate
             */
            webhook_url?: string;
            /** @description Gallery images to give the model (uploads or earlier generations); the first is the one edited. Up to the model's inputs.max_images */
            image_ids?: string[];
            /** @description A PNG or WebP the size of the first image whose fully transparent pixels mark the area to change (OpenAI semantics); for models whose inputs.mask is true */
            mask_image_id?: string;
            /**
             * @description Pixels; each model's own range applies (`min_size`, `max_width` in GET /api/models)
             * @example 512
             */
            width?: number;
            /**
             * @description Pixels; each model's own range applies (`min_size`, `max_height`)
             * @example 512
             */
            height?: number;
            /** @description Same prompt and seed give the same image on deterministic models */
            seed?: number;
            negative_prompt?: string;
            steps?: number;
            guidance?: number;
            /** @description Image-to-image: how far the result may move from the first input image, 0 (keep it) to 1 (ignore it); for models whose inputs.strength is true */
            strength?: number;
            /**
             * @description For models that list quality levels (outputs.quality in GET /api/models); priced per quality where the provider does. auto: the model's default
             * @enum {string}
             */
            quality?: "low" | "medium" | "high" | "auto";
            /**
             * @description transparent needs a model with outputs.transparent_background and png or webp; opaque flattens any transparency onto white
             * @enum {string}
             */
            background?: "transparent" | "opaque" | "auto";
            /**
             * @description The stored file's format (default png); r2_key ends in .png, .jpg or .webp
             * @enum {string}
             */
            output_format?: "png" | "jpeg" | "webp";
            /** @description jpeg and webp quality, 0 to 100 (100 keeps the most detail) */
            output_compression?: number;
            /**
             * @description OpenAI gpt-image edits: how closely the result keeps the input's faces and details
             * @enum {string}
             */
            input_fidelity?: "low" | "high";
        };
        BatchList: {
            batches: components["schemas"]["Batch"][];
            pagination: components["schemas"]["Pagination"];
        };
        BatchDetail: components["schemas"]["Batch"] & {
            images: {
                id: string;
                prompt: string;
                r2_url: string;
            }[];
            items: {
                index: number;
                prompt: string;
                /** @enum {string} */
                status: "pending" | "running" | "succeeded" | "failed" | "cancelled";
                image_id: string;
                image: {
                    id: string;
                    prompt: string;
                    r2_url: string;
                } | null;
                error: string | null;
                /** @description The generation that runs this prompt: follow it live at /api/generations/{id}/events */
                generation_id?: string;
            }[];
            errors: {
                index: number;
                prompt: string;
                error: string;
            }[];
            webhook: {
                deliveries: {
                    /** @description The webhook-id header, the same on every attempt */
                    id: string;
                    event: string;
                    url: string;
                    /** @enum {string} */
                    status: "pending" | "delivered" | "failed" | "stopped";
                    attempt_count: number;
                    next_attempt_at: string | null;
                    attempts: {
                        attempt: number;
                        at: string;
                        status_code: number | null;
                        error: string | null;
                        duration_ms: number;
                    }[];
                }[];
            };
        };
        WebhookSecret: {
            /** @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw */
            secret: string;
        };
        Me: {
            user_id: string;
            /** @enum {string} */
            auth_mode: "api_key" | "ip_allowlist";
            /** @description What this caller may do, expanded: manage carries read and generate */
            permissions: ("generate" | "read" | "manage")[];
            is_admin: boolean;
            /** @description The key of this request: plan, rate limit, budgets and spend; null in the IP allow-list mode */
            key: components["schemas"]["ApiKey"] & ({
                /** @description Always false: a key cannot revoke itself */
                revocable: boolean;
                not_revocable_reason: string | null;
            } | null);
        };
        ApiKey: {
            /** @example key_01jc4x1q7z3m9r4f2k8t6v5w0y */
            id: string;
            name: string;
            /**
             * @description First characters of the secret, to recognise the key
             * @example igk_live_Xq3v9a
             */
            prefix: string;
            user_id: string;
            permissions: ("generate" | "read" | "manage")[];
            /** @enum {string} */
            plan: "standard" | "pro" | "enterprise";
            /** @description Requests per minute */
            rate_limit: number;
            is_admin: boolean;
            /** @enum {string} */
            status: "active" | "revoked" | "expired";
            created_at: string;
            expires_at: string | null;
            revoked_at: string | null;
            /** @description Updated at most once a minute */
            last_used_at: string | null;
            /** @description Spend limit per UTC day in USD; null for none */
            daily_budget_usd: number | null;
            /** @description Spend limit per UTC month in USD; null for none */
            monthly_budget_usd: number | null;
            /** @description What this key's images cost this UTC day and month (deleted images included: they were paid for) */
            spend: {
                today_usd: number;
                this_month_usd: number;
            };
        };
        OpenAiImagesResponse: {
            /** @description Unix seconds */
            created: number;
            data: {
                url?: string;
                b64_json?: string;
                revised_prompt?: string;
            }[];
            /**
             * @description transparent or opaque as asked; opaque for models that cannot draw transparency; else auto (the model chose)
             * @enum {string}
             */
            background?: "transparent" | "opaque" | "auto";
            /**
             * @description The format of the images
             * @enum {string}
             */
            output_format?: "png" | "jpeg" | "webp";
            /**
             * @description The level asked for, or the level OpenAI's models are called at by default (medium); auto for models with one fixed quality
             * @enum {string}
             */
            quality?: "low" | "medium" | "high" | "auto";
            /**
             * @description WIDTHxHEIGHT of the images
             * @example 512x512
             */
            size?: string;
            usage: components["schemas"]["OpenAiImagesUsage"];
        };
        /** @description Tokens, for token-billed models (OpenAI's GPT image models) an estimate by OpenAI's published formulas (the recorded cost uses what OpenAI reported); zeros for every other model, which counts no tokens */
        OpenAiImagesUsage: {
            input_tokens: number;
            input_tokens_details: {
                image_tokens: number;
                text_tokens: number;
            };
            output_tokens: number;
            output_tokens_details: {
                image_tokens: number;
                text_tokens: number;
            };
            total_tokens: number;
        };
        OpenAiError: {
            error: {
                message: string;
                type: string;
                param: string | null;
                code: string;
            };
        };
        OpenAiImageRequest: {
            /** @example a lighthouse on a cliff at sunset */
            prompt: string;
            /**
             * @description A model id from GET /v1/models; defaults to the service default (DEFAULT_MODEL)
             * @example local/procedural
             */
            model?: string | null;
            /** @description Images to make, 1 to 10 (default 1); each is a normal imagegate image. With response_format b64_json, n × width × height is at most 16,777,216 pixels */
            n?: number | null;
            /**
             * @description WIDTHxHEIGHT, or auto (the model's default size; for an edit, the input's size where the model can make it)
             * @example 512x512
             */
            size?: string | null;
            /**
             * @description low, medium or high for models that list them (outputs.quality in GET /api/models), else refused; auto is the model's default. DALL-E's names are mapped for DALL-E-era clients: standard is the model's default, hd its high where it has one (else its default, with a Warning header)
             * @enum {string|null}
             */
            quality?: "auto" | "low" | "medium" | "high" | "standard" | "hd" | null;
            /**
             * @description transparent only for models with outputs.transparent_background, with png or webp; opaque flattens any transparency onto white
             * @enum {string|null}
             */
            background?: "transparent" | "opaque" | "auto" | null;
            /**
             * @description The stored file's format (default png), also the format of b64_json
             * @enum {string|null}
             */
            output_format?: "png" | "jpeg" | "webp" | null;
            /** @description jpeg and webp quality, 0 to 100; refused with png */
            output_compression?: number | null;
            /**
             * @description Passed to the providers that take it (OpenAI's GPT image generations: low filters less); every other provider, and OpenAI's edits, moderate at their own standard level. imagegate adds no filter of its own; a refusal is a 400 content_policy_violation
             * @enum {string|null}
             */
            moderation?: "auto" | "low" | null;
            /**
             * @description dall-e-3's, accepted for DALL-E-era clients and left aside (no model here has styles), with a Warning header: say the style in the prompt
             * @enum {string|null}
             */
            style?: "vivid" | "natural" | null;
            /** @description true: the answer is text/event-stream in OpenAI's format, each image an `image_generation.completed` (or `image_edit.completed`) event with `usage` */
            stream?: boolean | null;
            /** @description With stream only, 0 to 3: partial images where the model draws them (OpenAI's GPT image models; fewer or none elsewhere, which OpenAI's contract allows) */
            partial_images?: number | null;
            /**
             * @description b64_json (default, as OpenAI's GPT image models always answer): the image itself, base64; url: the public URL of the stored image (no pixel cap)
             * @enum {string|null}
             */
            response_format?: "url" | "b64_json" | null;
            /** @description Your end user's id; kept in the image's metadata as openai_user */
            user?: string | null;
        };
        OpenAiImageEditForm: {
            /** @description The image to edit, or several (repeat the field, or send image[]): up to 16, each a PNG, JPEG or WebP; the first is the one edited, up to the model's inputs.max_images */
            image?: Blob | Blob[];
            /** @description The same, as openai-node sends an array of images */
            "image[]"?: Blob[];
            /**
             * Format: binary
             * @description The images numbered from 0, as some form encoders send an array; in index order
             */
            "image[0]"?: Blob;
            /**
             * Format: binary
             * @description As image[0]
             */
            "image[1]"?: Blob;
            /**
             * Format: binary
             * @description As image[0]
             */
            "image[2]"?: Blob;
            /**
             * Format: binary
             * @description As image[0]
             */
            "image[3]"?: Blob;
            /**
             * Format: binary
             * @description As image[0]
             */
            "image[4]"?: Blob;
            /**
             * Format: binary
             * @description As image[0]
             */
            "image[5]"?: Blob;
            /**
             * Format: binary
             * @description As image[0]
             */
            "image[6]"?: Blob;
            /**
             * Format: binary
             * @description As image[0]
             */
            "image[7]"?: Blob;
            /**
             * Format: binary
             * @description As image[0]
             */
            "image[8]"?: Blob;
            /**
             * Format: binary
             * @description As image[0]
             */
            "image[9]"?: Blob;
            /**
             * Format: binary
             * @description As image[0]
             */
            "image[10]"?: Blob;
            /**
             * Format: binary
             * @description As image[0]
             */
            "image[11]"?: Blob;
            /**
             * Format: binary
             * @description As image[0]
             */
            "image[12]"?: Blob;
            /**
             * Format: binary
             * @description As image[0]
             */
            "image[13]"?: Blob;
            /**
             * Format: binary
             * @description As image[0]
             */
            "image[14]"?: Blob;
            /**
             * Format: binary
             * @description As image[0]
             */
            "image[15]"?: Blob;
            /**
             * Format: binary
             * @description A PNG (or WebP) the size of the first image whose fully transparent pixels mark the area to change; for models whose inputs.mask is true
             */
            mask?: Blob;
            /** @example add a red boat on the water */
            prompt: string;
            /**
             * @description A model id from GET /v1/models; defaults to the service default (DEFAULT_MODEL)
             * @example local/procedural
             */
            model?: string;
            /** @description Images to make, 1 to 10 (default 1) */
            n?: number;
            /**
             * @description WIDTHxHEIGHT, or auto (the model's default size; for an edit, the input's size where the model can make it)
             * @example 512x512
             */
            size?: string;
            /**
             * @description low, medium or high for models that list them (outputs.quality in GET /api/models), else refused; auto is the model's default. DALL-E's names are mapped for DALL-E-era clients: standard is the model's default, hd its high where it has one (else its default, with a Warning header)
             * @enum {string}
             */
            quality?: "auto" | "low" | "medium" | "high" | "standard" | "hd";
            /**
             * @description transparent only for models with outputs.transparent_background, with png or webp; opaque flattens any transparency onto white
             * @enum {string}
             */
            background?: "transparent" | "opaque" | "auto";
            /**
             * @description The stored file's format (default png), also the format of b64_json
             * @enum {string}
             */
            output_format?: "png" | "jpeg" | "webp";
            /** @description jpeg and webp quality, 0 to 100; refused with png */
            output_compression?: number;
            /**
             * @description For models that take it (OpenAI gpt-image edits), else refused
             * @enum {string}
             */
            input_fidelity?: "low" | "high";
            /**
             * @description b64_json (default, as OpenAI's GPT image models always answer): the image itself, base64; url: the public URL of the stored image (no pixel cap)
             * @enum {string}
             */
            response_format?: "url" | "b64_json";
            /**
             * @description Passed to the providers that take it (OpenAI's GPT image generations: low filters less); every other provider, and OpenAI's edits, moderate at their own standard level. imagegate adds no filter of its own; a refusal is a 400 content_policy_violation
             * @enum {string}
             */
            moderation?: "auto" | "low";
            /**
             * @description dall-e-3's, accepted for DALL-E-era clients and left aside (no model here has styles), with a Warning header: say the style in the prompt
             * @enum {string}
             */
            style?: "vivid" | "natural";
            /**
             * @description true: the answer is text/event-stream in OpenAI's format, each image an `image_edit.completed` event with `usage`
             * @enum {string}
             */
            stream?: "true" | "false";
            /** @description With stream only, 0 to 3: partial images where the model draws them (OpenAI's GPT image models) */
            partial_images?: number;
            /** @description Your end user's id; kept in the image's metadata as openai_user */
            user?: string;
        };
        OpenAiImageVariationForm: {
            /**
             * Format: binary
             * @description The image to vary: a PNG, JPEG or WebP
             */
            image: Blob;
            /**
             * @description A model id from GET /v1/models; defaults to the service default (DEFAULT_MODEL)
             * @example local/procedural
             */
            model?: string;
            /** @description Images to make, 1 to 10 (default 1) */
            n?: number;
            /**
             * @description WIDTHxHEIGHT, or auto (the model's default size; for an edit, the input's size where the model can make it)
             * @example 512x512
             */
            size?: string;
            /**
             * @description b64_json (default, as OpenAI's GPT image models always answer): the image itself, base64; url: the public URL of the stored image (no pixel cap)
             * @enum {string}
             */
            response_format?: "url" | "b64_json";
            /** @description Your end user's id; kept in the image's metadata as openai_user */
            user?: string;
        };
        OpenAiModelList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["OpenAiModel"][];
        };
        OpenAiModel: {
            /** @example local/procedural */
            id: string;
            /** @enum {string} */
            object: "model";
            created: number;
            owned_by: string;
        };
        CreatedApiKey: components["schemas"]["ApiKey"] & {
            /**
             * @description The secret. Shown once, here; store it now.
             * @example igk_live_Xq3v9a...
             */
            key: string;
        };
        CreateApiKey: {
            /** @example ci */
            name: string;
            /**
             * @example [
             *       "generate",
             *       "read"
             *     ]
             */
            permissions: ("generate" | "read" | "manage")[];
            /**
             * @description standard (100/min, default), pro (500/min), enterprise (rate_limit)
             * @enum {string}
             */
            plan?: "standard" | "pro" | "enterprise";
            /** @description Requests per minute; enterprise only */
            rate_limit?: number;
            /**
             * Format: date-time
             * @example 2027-01-01T00:00:00Z
             */
            expires_at?: string;
            /**
             * @description Refuse generations (402 BUDGET_EXCEEDED) that would take this UTC day past this many USD
             * @example 5
             */
            daily_budget_usd?: number | null;
            /**
             * @description Refuse generations that would take this UTC month past this many USD
             * @example 50
             */
            monthly_budget_usd?: number | null;
            /** @description Admin keys only: create the key for another user */
            user_id?: string;
        };
        ApiKeyList: {
            keys: components["schemas"]["ApiKey"][];
            pagination: components["schemas"]["Pagination"];
        };
        RevokedApiKey: {
            id: string;
            /** @enum {boolean} */
            revoked: true;
            revoked_at: string;
        };
        UpdateApiKey: {
            /** @example ci */
            name?: string;
            /**
             * @description USD per UTC day; null removes the budget
             * @example 2
             */
            daily_budget_usd?: number | null;
            /**
             * @description USD per UTC month; null removes the budget
             * @example 40
             */
            monthly_budget_usd?: number | null;
            /**
             * @description At most the calling key's own plan
             * @enum {string}
             */
            plan?: "standard" | "pro" | "enterprise";
            /** @description Requests per minute; enterprise only */
            rate_limit?: number;
            /**
             * Format: date-time
             * @description A future time, or null for a key that does not expire
             * @example 2027-06-30T00:00:00Z
             */
            expires_at?: string | null;
        };
        Health: {
            /** @enum {string} */
            status: "ok";
        };
        Readiness: {
            /** @enum {string} */
            status: "ready" | "unavailable";
            /**
             * @example {
             *       "database": "ok",
             *       "storage": "ok",
             *       "redis": "ok"
             *     }
             */
            checks: {
                [key: string]: string;
            };
        };
        AppConfig: {
            /**
             * @description api_key: send Authorization: Bearer <API_KEY> on /api requests; ip_allowlist: send nothing
             * @enum {string}
             */
            auth_mode: "api_key" | "ip_allowlist";
            /** @example 0.1.0 */
            version: string;
            /**
             * @description The image types this server decodes, for uploads and edits: all three on Node, image/png on Cloudflare Workers
             * @example [
             *       "image/png",
             *       "image/jpeg",
             *       "image/webp"
             *     ]
             */
            upload_types: ("image/png" | "image/jpeg" | "image/webp")[];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    generateImage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GenerateRequest"];
            };
        };
        responses: {
            /** @description The generated image */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Image"];
                };
            };
            /** @description Accepted: the generation runs on; follow it at `Location` */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Generation"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's daily or monthly budget would be passed (BUDGET_EXCEEDED) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The generation was cancelled before it finished */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The same Idempotency-Key with another request (IDEMPOTENCY_KEY_REUSED) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The model's provider cannot be used (out of credit, wrong credentials): the operator must act */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The provider is down or failing repeatedly; retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The provider did not answer in time (PROVIDER_TIMEOUT) */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listImages: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100, default 20 */
                limit?: number;
                /** @description Number of results to skip, 0 to 1000000000, default 0 */
                offset?: number;
                /** @description Only images whose prompt contains this text, ignoring case (matched literally; % and _ are not wildcards) */
                q?: string;
                /** @description Only images made by this model id */
                model?: string;
                /** @description Only generated images, or only uploads (all of them: files uploaded on purpose, and the inputs and masks edits stored). Without kind: generated images and files uploaded on purpose; inputs and masks (upload_role input or mask) are left out */
                kind?: "generated" | "upload";
                /** @description Only images made from this image (its children): walk lineage down; each record's source_image_ids walks it up */
                derived_from?: string;
                /** @description pagination.next_cursor of the previous page: keyset paging, as fast on page 10,000 as on page 1 (instead of offset) */
                cursor?: string;
                /** @description Only images created at or after this: a date (2026-11-01) or a UTC timestamp */
                from?: string;
                /** @description Only images created before this: a date includes that whole day; a timestamp is exclusive */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of images */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageList"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getImage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The image */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageDetail"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteImage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The image is deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedImage"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    uploadImage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The image file */
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["UploadForm"];
            };
        };
        responses: {
            /** @description The uploaded image */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Image"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The same Idempotency-Key while its first request runs (IDEMPOTENCY_IN_PROGRESS) */
            409: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description File larger than 50 MB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The same Idempotency-Key with another request (IDEMPOTENCY_KEY_REUSED) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listGenerations: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100, default 20 */
                limit?: number;
                /** @description Number of results to skip, 0 to 1000000000, default 0 */
                offset?: number;
                status?: "queued" | "running" | "succeeded" | "failed" | "cancelled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of generations */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GenerationList"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getGeneration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The generation, with its webhook deliveries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GenerationDetail"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelGeneration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The generation, cancelled or being cancelled */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Generation"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The generation already finished */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    streamGenerationEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCollections: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100, default 20 */
                limit?: number;
                /** @description Number of results to skip, 0 to 1000000000, default 0 */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of collections */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectionList"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createCollection: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCollection"];
            };
        };
        responses: {
            /** @description The new collection */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Collection"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCollection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The collection */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Collection"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteCollection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The collection is deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedCollection"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCollectionImages: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100, default 20 */
                limit?: number;
                /** @description Number of results to skip, 0 to 1000000000, default 0 */
                offset?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of images */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectionImages"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    addImageToCollection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AddImageToCollection"];
            };
        };
        responses: {
            /** @description Already in the collection */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectionMembership"];
                };
            };
            /** @description Added */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectionMembership"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeImageFromCollection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                image_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        collection_id: string;
                        image_id: string;
                        /** @enum {boolean} */
                        removed: true;
                    };
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listModels: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100, default 20 */
                limit?: number;
                /** @description Number of results to skip, 0 to 1000000000, default 0 */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of models */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModelList"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The model */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Model"];
                };
            };
            /** @description A path or query parameter that is not valid text, or a malformed Idempotency-Key (INVALID_PARAMETER) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (UNAUTHORIZED) */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the permission (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (INTERNAL_ERROR) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTemplates: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100, default 20 */
                limit?: number;
                /** @description Number of results to skip, 0 to 1000000000, default 0 */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of templates */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateList"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTemplate"];
            };
        };
        responses: {
            /** @description The new template */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Template"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The template */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Template"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateTemplate"];
            };
        };
        responses: {
            /** @description The updated template */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Template"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The template is deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedTemplate"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUsage: {
        parameters: {
            query?: {
                /** @description Inclusive start: a date (2026-11-01) or a UTC timestamp */
                from?: string;
                /** @description End: a date includes that whole day; a timestamp is exclusive */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Usage statistics */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsageReport"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCosts: {
        parameters: {
            query?: {
                /** @description Inclusive start: a date (2026-11-01) or a UTC timestamp */
                from?: string;
                /** @description End: a date includes that whole day; a timestamp is exclusive */
                to?: string;
                /** @description Only what this key of yours spent */
                key_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cost statistics */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CostReport"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCharges: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100, default 20 */
                limit?: number;
                /** @description Number of results to skip, 0 to 1000000000, default 0 */
                offset?: number;
                /** @description Inclusive start: a date (2026-11-01) or a UTC timestamp */
                from?: string;
                /** @description End: a date includes that whole day; a timestamp is exclusive */
                to?: string;
                /** @description Only the charges of this key of yours */
                key_id?: string;
                /** @description Only charges with this outcome; `uncertain` lists the calls to check against the provider */
                outcome?: "reserved" | "succeeded" | "not_charged" | "charged_no_image" | "uncertain";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of charges */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChargeList"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createBatch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateBatch"];
            };
        };
        responses: {
            /** @description The accepted batch */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Batch"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The same Idempotency-Key while its first request runs (IDEMPOTENCY_IN_PROGRESS) */
            409: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The same Idempotency-Key with another request (IDEMPOTENCY_KEY_REUSED) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    generateBatch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GenerateBatch"];
            };
        };
        responses: {
            /** @description The accepted batch */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Batch"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The same Idempotency-Key while its first request runs (IDEMPOTENCY_IN_PROGRESS) */
            409: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The same Idempotency-Key with another request (IDEMPOTENCY_KEY_REUSED) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listBatches: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100, default 20 */
                limit?: number;
                /** @description Number of results to skip, 0 to 1000000000, default 0 */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of batches */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchList"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The batch */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchDetail"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cancelled batch */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Batch"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The batch already finished */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The secret receivers verify signatures with */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecret"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    openAiCreateImage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OpenAiImageRequest"];
            };
        };
        responses: {
            /** @description The images (or, with stream: true, their events) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiImagesResponse"];
                    "text/event-stream": string;
                };
            };
            /** @description Invalid request (invalid_request_error) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description The key lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description No such model */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description The same Idempotency-Key while its first request runs (IDEMPOTENCY_IN_PROGRESS) */
            409: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description Request body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description The same Idempotency-Key with another request (IDEMPOTENCY_KEY_REUSED) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description Rate limit (rate_limit_exceeded) or spend limit (insufficient_quota) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description The model's provider cannot be used, or its answer was lost after the request was sent (server_error) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description The provider, or a service imagegate needs, is unavailable; retry after Retry-After (server_error) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description The provider did not answer in time (server_error) */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
        };
    };
    openAiEditImage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The images, the mask and the fields */
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["OpenAiImageEditForm"];
            };
        };
        responses: {
            /** @description The images (or, with stream: true, their events) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiImagesResponse"];
                    "text/event-stream": string;
                };
            };
            /** @description Invalid request (invalid_request_error) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description The key lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description No such model */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description The same Idempotency-Key while its first request runs (IDEMPOTENCY_IN_PROGRESS) */
            409: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description Files larger than 50 MB (payload_too_large) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description The same Idempotency-Key with another request (IDEMPOTENCY_KEY_REUSED) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description Rate limit (rate_limit_exceeded) or spend limit (insufficient_quota) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description The model's provider cannot be used, or its answer was lost after the request was sent (server_error) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description The provider, or a service imagegate needs, is unavailable; retry after Retry-After (server_error) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description The provider did not answer in time (server_error) */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
        };
    };
    openAiCreateImageVariation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The image and the fields */
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["OpenAiImageVariationForm"];
            };
        };
        responses: {
            /** @description The images */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiImagesResponse"];
                };
            };
            /** @description Invalid request (invalid_request_error) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description The key lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description No such model */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description The same Idempotency-Key while its first request runs (IDEMPOTENCY_IN_PROGRESS) */
            409: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description File larger than 50 MB (payload_too_large) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description The same Idempotency-Key with another request (IDEMPOTENCY_KEY_REUSED) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description Rate limit (rate_limit_exceeded) or spend limit (insufficient_quota) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description The model's provider cannot be used, or its answer was lost after the request was sent (server_error) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description The provider, or a service imagegate needs, is unavailable; retry after Retry-After (server_error) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description The provider did not answer in time (server_error) */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
        };
    };
    openAiListModels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The models */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiModelList"];
                };
            };
            /** @description Invalid request (invalid_request_error) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description The key lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description No such model */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description Rate limit (rate_limit_exceeded) or spend limit (insufficient_quota) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
        };
    };
    openAiRetrieveModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The model */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiModel"];
                };
            };
            /** @description A path or query parameter that is not valid text, or a malformed Idempotency-Key (INVALID_PARAMETER) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description Missing or invalid API key (UNAUTHORIZED) */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description The key lacks the permission (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description No such model */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description Internal server error (INTERNAL_ERROR) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAiError"];
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100, default 20 */
                limit?: number;
                /** @description Number of results to skip, 0 to 1000000000, default 0 */
                offset?: number;
                /** @description Admin keys only: another user's keys, or * for all */
                user_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of keys */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyList"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKey"];
            };
        };
        responses: {
            /** @description The new key with its secret */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiKey"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key is revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RevokedApiKey"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This key cannot be revoked through the API */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateApiKey"];
            };
        };
        responses: {
            /** @description The key as it now is */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description Invalid parameters or request format */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key (key-based mode) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP not allowed (plain text `Forbidden`) or insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is revoked or managed by the environment */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED) */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is up */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is up */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every dependency answers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description A dependency does not answer; `checks` says which */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    getAppConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The access mode and the server version */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppConfig"];
                };
            };
        };
    };
}
