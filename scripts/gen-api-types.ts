import fs from 'node:fs';
import path from 'node:path';
import { generateApiTypes, SCHEMA_FILE } from './api-types.js';

/** `npm run gen:api-types`: writes web/src/api/schema.d.ts from the service's OpenAPI document. */
const text = await generateApiTypes();
fs.writeFileSync(SCHEMA_FILE, text);
console.log(`wrote ${path.relative(process.cwd(), SCHEMA_FILE)} (${text.length} characters)`);
