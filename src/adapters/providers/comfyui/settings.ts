import { defineSettings, optionalSetting, optionalUrlSetting } from '../provider-settings.js';

/**
 * Kept apart from provider.ts, which needs Node (its workflows are files, its progress an undici WebSocket): these
 * are read on every runtime, so a bad COMFYUI_URL stops a Worker's start-up too.
 */
export const comfyUiSettings = defineSettings({ shape: { COMFYUI_URL: optionalUrlSetting, COMFYUI_WORKFLOWS: optionalSetting }, paths: ['COMFYUI_WORKFLOWS'] });
