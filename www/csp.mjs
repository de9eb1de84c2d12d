// Trunk post-build hook (Trunk.toml): readies the built index.html and its start script.
// - The start script (www/start.js, copied by trunk) gets each page module's file names: the
//   main module's hashed names from the tag trunk put in its place (Trunk.toml,
//   pattern_script), the tools module's (built as a trunk "worker": unhashed) with its content
//   hash as a query, so that a new build is never mixed with a cached old one. It is renamed
//   start-<hash>.js for the same reason.
// - A Content-Security-Policy goes in a <meta> at the top of <head>: no inline script, no
//   remote origin, WebAssembly compilation allowed ('wasm-unsafe-eval'), requests only to the
//   page's own origin (its files and same-origin ?bundle= traces).
// - The same policy goes in `_headers`, the file static hosts such as Netlify and Cloudflare
//   Pages read to send headers: a worker's policy is the one its script is served with (a
//   <meta> reaches only the page), so the worker scripts run under it only where the host sends
//   it (docs/viewer.md lists the headers for any other host).
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

/** The headers every file of dist/ should be served with, in the `_headers` format. */
export const HEADERS = [
  '# The headers a host should send with every file of this folder (Netlify and Cloudflare Pages',
  '# read this file; elsewhere, configure the same). The Content-Security-Policy is the one the page',
  "# carries in a <meta>; sent as a header it also covers the worker scripts, whose policy is the",
  '# one they are served with.',
  '/*',
  `  Content-Security-Policy: ${POLICY}`,
  '  X-Content-Type-Options: nosniff',
  '',
].join('\n');

const hash = (...buffers) => {
  const h = crypto.createHash('sha256');
  for (const b of buffers) h.update(b);
  return h.digest('hex').slice(0, 16);
};

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error('www/csp.mjs runs as a trunk hook (TRUNK_STAGING_DIR is not set)');
const file = path.join(dir, 'index.html');
let html = fs.readFileSync(file, 'utf8');

const tag = /<script type="module" src="[^"]*start\.js" data-web-js="([^"]+)" data-web-wasm="([^"]+)"><\/script>/;
const m = html.match(tag);
if (!m) throw new Error(`${file}: the start script's tag (Trunk.toml, pattern_script) was not found`);
const bare = (url) => url.replace(/^\.\//, '');
const files = { web: { js: bare(m[1]), wasm: bare(m[2]) } };
{
  const read = (f) => fs.readFileSync(path.join(dir, f));
  const js = 'memaudit-tools.js';
  const wasm = 'memaudit-tools_bg.wasm';
  const v = hash(read(js), read(wasm));
  files.tools = { js: `${js}?v=${v}`, wasm: `${wasm}?v=${v}` };
}
let start = fs.readFileSync(path.join(dir, 'start.js'), 'utf8');
const empty = 'const FILES = {};';
if (!start.includes(empty)) throw new Error(`start.js: \`${empty}\` was not found`);
start = start.replace(empty, `const FILES = ${JSON.stringify(files)};`);
const name = `start-${hash(start)}.js`;
fs.writeFileSync(path.join(dir, name), start);
fs.rmSync(path.join(dir, 'start.js'));
html = html.replace(tag, `<script type="module" src="./${name}"></script>`);

if (/<script(?![^>]*\bsrc=)[^>]*>/.test(html)) throw new Error(`${file}: an inline script is left`);
const charset = /<meta charset="utf-8" \/>/;
if (!charset.test(html)) throw new Error(`${file}: <meta charset="utf-8" /> not found`);
html = html.replace(charset, (c) => `${c}\n    <meta http-equiv="Content-Security-Policy" content="${POLICY}" />`);
fs.writeFileSync(file, html);
fs.writeFileSync(path.join(dir, '_headers'), HEADERS);
