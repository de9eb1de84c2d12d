// Serves the built viewer (dist/) as a static host would: `node www/serve-dist.mjs [PORT]`.
// Used by scripts/serve.sh when dist/ is newer than every input (nothing to rebuild).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './static-server.mjs';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const port = Number(process.argv[2] || process.env.PORT || 8080);
const { origin } = await serve({ '/': dist }, port);
console.log(`memaudit viewer (dist/, no rebuild): ${origin}/?demo — Ctrl-C to stop`);
