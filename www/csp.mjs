// Trunk post-build hook (Trunk.toml): makes the built index.html work under a strict
// Content-Security-Policy. Trunk writes the code that starts the page module as an inline
// <script type="module">; this moves it to its own file (start-<hash>.js, same directory) and
// puts the policy in a <meta> at the top of <head>:
//   no inline script, no remote origin, WebAssembly compilation allowed ('wasm-unsafe-eval'),
//   requests only to the page's own origin (its files and same-origin ?bundle= traces).
// Runs in trunk's staging directory (TRUNK_STAGING_DIR) before it becomes dist/.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const POLICY = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  // plotters measures text in the browser with a hidden <span style="…"> (its web font backend
  // sets the attribute): style attributes only, never <style> elements or scripts.
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "worker-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error('www/csp.mjs runs as a trunk hook (TRUNK_STAGING_DIR is not set)');
const file = path.join(dir, 'index.html');
let html = fs.readFileSync(file, 'utf8');
const inline = /<script type="module">([\s\S]*?)<\/script>/;
const m = html.match(inline);
if (!m) throw new Error(`${file}: trunk's start script was not found`);
const name = `start-${crypto.createHash('sha256').update(m[1]).digest('hex').slice(0, 16)}.js`;
fs.writeFileSync(path.join(dir, name), m[1].trim() + '\n');
html = html.replace(inline, `<script type="module" src="./${name}"></script>`);
if (/<script(?![^>]*\bsrc=)[^>]*>/.test(html)) throw new Error(`${file}: an inline script is left`);
const charset = /<meta charset="utf-8" \/>/;
if (!charset.test(html)) throw new Error(`${file}: <meta charset="utf-8" /> not found`);
html = html.replace(charset, (m) => `${m}\n    <meta http-equiv="Content-Security-Policy" content="${POLICY}" />`);
fs.writeFileSync(file, html);
