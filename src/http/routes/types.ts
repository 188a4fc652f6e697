import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Deps } from '../../domain/context.js';
import type { AppEnv } from '../app-env.js';

export type Api = OpenAPIHono<AppEnv>;
export type RegisterRoutes = (app: Api, deps: Deps) => void;
