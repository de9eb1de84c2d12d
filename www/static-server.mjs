// A tiny static file server for the viewer's tests: maps URL prefixes to directories.
// Only GET/HEAD; `.wasm` as application/wasm and `.js` as text/javascript (what a real
// static host must do too).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

export const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.json': 'application/json',
  '.jsonl': 'application/x-ndjson',
  '.gz': 'application/gzip',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/**
 * The headers a mounted folder asks for in its `_headers` file (the format Netlify and
 * Cloudflare Pages read; only the `/*` block, which is all dist/ has), as a static host would
 * send them.
 */
function hostHeaders(dir) {
  const file = path.join(dir, '_headers');
  if (!fs.existsSync(file)) return {};
  const out = {};
  let all = false;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('#') || !line.trim()) continue;
    if (!/^\s/.test(line)) {
      all = line.trim() === '/*';
      continue;
    }
    const at = line.indexOf(':');
    if (all && at > 0) out[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return out;
}

/**
 * Serves `mounts` ({ '/prefix/': '/abs/dir', ... }, longest prefix wins) on 127.0.0.1 at
 * `port` (0: a free port). Resolves to { server, origin, served } where `served` lists every
 * path answered with 200.
 */
export function serve(mounts, port = 0) {
  const entries = Object.entries(mounts).sort((a, b) => b[0].length - a[0].length);
  const served = [];
  const server = http.createServer((req, res) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const hit = entries.find(([prefix]) => pathname.startsWith(prefix));
    if (!hit || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const [prefix, dir] = hit;
    // A mount `{ redirect: base }` answers 302 to base + the rest of the path, `PORT` in base
    // being this server's port (for the tests of redirected ?bundle= URLs); every answer allows
    // any origin to read it, as a CDN would.
    if (typeof dir === 'object' && dir.redirect) {
      const base = dir.redirect.replace('PORT', String(server.address().port));
      res.writeHead(302, { location: base + pathname.slice(prefix.length), 'access-control-allow-origin': '*' }).end();
      return;
    }
    let rel = pathname.slice(prefix.length);
    if (rel === '' || rel.endsWith('/')) rel += 'index.html';
    const file = path.resolve(dir, rel);
    if (!file.startsWith(path.resolve(dir) + path.sep) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    served.push(pathname);
    res.writeHead(200, {
      'content-type': TYPES[path.extname(file)] || 'application/octet-stream',
      'cache-control': 'no-store',
      'access-control-allow-origin': '*',
      ...hostHeaders(dir),
    });
    if (req.method === 'HEAD') res.end();
    else fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      resolve({ server, origin: `http://127.0.0.1:${server.address().port}`, served });
    });
  });
}

/** Chromium flags for a quiet, offline-friendly headless run. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
