// Serves a built viewer as a static host would: `node www/serve-dist.mjs [PORT] [DIR]` (DIR:
// dist/ by default). Used by scripts/serve.sh when the build is newer than every input.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './static-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.argv[2] || process.env.PORT || 8080);
const dir = path.resolve(root, process.argv[3] || 'dist');
const { origin } = await serve({ '/': dir }, port);
console.log(`memaudit viewer (${path.relative(root, dir)}/, no rebuild): ${origin}/?demo — Ctrl-C to stop`);
