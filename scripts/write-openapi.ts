import { writeFileSync } from 'node:fs';
import { generateOpenApiDocument } from './openapi-document.js';

writeFileSync(new URL('../openapi.json', import.meta.url), await generateOpenApiDocument());
process.stdout.write('openapi.json written\n');
