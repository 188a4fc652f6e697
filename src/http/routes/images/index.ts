import type { RegisterRoutes } from '../types.js';
import { registerDeleteImage } from './delete.js';
import { registerGenerate } from './generate.js';
import { registerGetImage } from './get.js';
import { registerListImages } from './list.js';
import { registerUploadImage } from './upload.js';

export const registerImageRoutes: RegisterRoutes = (app, deps) => {
  registerGenerate(app, deps);
  registerListImages(app, deps);
  registerGetImage(app, deps);
  registerDeleteImage(app, deps);
  registerUploadImage(app, deps);
};
