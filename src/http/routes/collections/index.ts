import type { RegisterRoutes } from '../types.js';
import { registerGetAndDeleteCollection } from './get-and-delete.js';
import { registerCollectionImages } from './images.js';
import { registerListAndCreateCollections } from './list-and-create.js';

export const registerCollectionRoutes: RegisterRoutes = (app, deps) => {
  registerListAndCreateCollections(app, deps);
  registerGetAndDeleteCollection(app, deps);
  registerCollectionImages(app, deps);
};
