/** Table shapes as stored. Portable types only (text, integer, double precision) so SQLite, PostgreSQL and D1 share one migration set. */
export interface ImagesTable {
  id: string;
  user_id: string;
  prompt: string;
  model: string;
  r2_key: string;
  width: number;
  height: number;
  cost: number;
  /** 0 or 1: SQLite has no boolean type. */
  is_deleted: number;
  created_at: string;
  deleted_at: string | null;
  template_id: string | null;
  /** JSON text. */
  metadata: string | null;
  /** JSON text. */
  parameters: string;
}

export interface CollectionsTable {
  id: string;
  user_id: string;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

export interface CollectionImagesTable {
  collection_id: string;
  image_id: string;
  added_at: string;
}

export interface TemplatesTable {
  id: string;
  user_id: string;
  name: string;
  model: string;
  default_prompt: string;
  /** JSON text. */
  parameters: string;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  /** First characters of the secret, for people to recognise a key; never enough to use it. */
  prefix: string;
  /** SHA-256 of the secret, hex. The secret itself is never stored. */
  hash: string;
  /** JSON array of permissions. */
  permissions: string;
  plan: string;
  rate_limit: number | null;
  is_admin: number;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface DatabaseSchema {
  api_keys: ApiKeysTable;
  images: ImagesTable;
  collections: CollectionsTable;
  collection_images: CollectionImagesTable;
  templates: TemplatesTable;
}
