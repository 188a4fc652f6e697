import type { FunctionComponent } from 'preact';
import type { AppPage } from '../../../src/http/routes/system/app-pages.js';
import { AnalyticsPage } from './analytics/analytics-page.js';
import { BatchPage } from './batches/batch-page.js';
import { BatchesPage } from './batches/batches-page.js';
import { CollectionPage } from './collections/collection-page.js';
import { CollectionsPage } from './collections/collections-page.js';
import { GalleryPage } from './gallery/gallery-page.js';
import { GeneratePage } from './generate/generate-page.js';
import { KeysPage } from './keys/keys-page.js';
import { SignedIn } from './signed-in.js';
import { TemplatesPage } from './templates/templates-page.js';
import type { PageProps } from './types.js';

/** Every page the server serves has a component here, and only those: the type checks both ways. */
export const PAGES: Record<AppPage, FunctionComponent<PageProps>> = {
  '/': GeneratePage,
  '/sign-in': SignedIn,
  '/generate': GeneratePage,
  '/generations/:id': GeneratePage,
  '/gallery': GalleryPage,
  '/gallery/:id': GalleryPage,
  '/collections': CollectionsPage,
  '/collections/:id': CollectionPage,
  '/templates': TemplatesPage,
  '/batches': BatchesPage,
  '/batches/:id': BatchPage,
  '/analytics': AnalyticsPage,
  '/keys': KeysPage,
};
