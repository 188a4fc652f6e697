import type { RegisterRoutes } from '../types.js';
import { registerAddImageToCollection } from './add-image.js';
import { registerCreateCollection } from './create.js';
import { registerDeleteCollection } from './delete.js';
import { registerGetCollection } from './get.js';
import { registerListCollectionImages } from './list-images.js';
import { registerListCollections } from './list.js';
import { registerRemoveImageFromCollection } from './remove-image.js';

export const registerCollectionRoutes: RegisterRoutes = (app, deps) => {
  registerListCollections(app, deps);
  registerCreateCollection(app, deps);
  registerGetCollection(app, deps);
  registerDeleteCollection(app, deps);
  registerListCollectionImages(app, deps);
  registerAddImageToCollection(app, deps);
  registerRemoveImageFromCollection(app, deps);
};
