// Starts the memaudit viewer (copied to dist/ by trunk; www/csp.mjs writes the modules' file
// names in and names it start-<hash>.js). The pages are split over two WebAssembly modules
// (src/web/bridge.rs): memaudit-web (release, rescoring, comparison, probe, answers) and memaudit-tools
// (every other page). This loads the module of the page the URL names, so the first page
// downloads one module; that module draws the shell and asks for the other one
// (window.memauditLoadGroup) when one of its pages is first opened.
// URLs are relative to this script, so dist/ works from any sub-path.

// The pages of each module (the test `every_page_has_one_group_and_the_start_script_agrees`
// checks these lists against src/web/bridge.rs).
const PAGES = {
  web: ['audit', 'rescore', 'compare', 'probe', 'answers'],
  tools: ['reclaim', 'ablation', 'claims', 'rules', 'trec-eval', 'labels', 'calibration', 'alignment', 'compliance'],
};
// Each module's files, with a content hash in the name or the query so that a new build is
// never mixed with a cached old one (written by www/csp.mjs).
const FILES = {};

const started = new Map();

/** Loads and starts module `name` once ('web' or 'tools'); resolves when it has started. */
function load(name) {
  if (!Object.hasOwn(PAGES, name)) return Promise.reject(new Error(`no page module named ${name}`));
  if (!started.has(name)) {
    const files = FILES[name] ?? { js: `memaudit-${name}.js`, wasm: `memaudit-${name}_bg.wasm` };
    const wasm = fetch(new URL(`./${files.wasm}`, import.meta.url));
    started.set(name, import(`./${files.js}`).then((m) => m.default({ module_or_path: wasm })));
  }
  return started.get(name);
}

window.memauditLoadGroup = load;

// The module of the page the URL names, as the app reads the URL (src/web/app.rs,
// page_from_url): the hash, else ?page=, else the release page or the rescoring (both in 'web').
function firstModule() {
  for (const s of [location.hash, new URLSearchParams(location.search).get('page') ?? '']) {
    const slug = s.trim().replace(/^#+/, '').replace(/^\/+/, '').toLowerCase();
    const found = Object.keys(PAGES).find((name) => PAGES[name].includes(slug));
    if (found) return found;
  }
  return 'web';
}

load(firstModule()).catch((e) => {
  const text = `The viewer could not start: ${e && e.message ? e.message : e}`;
  // index.html's first screen is still up: its status line says it.
  const status = document.getElementById('first-screen-status');
  if (status) {
    status.className = 'error';
    status.setAttribute('role', 'alert');
    status.textContent = text;
    return;
  }
  const app = document.getElementById('app');
  if (!app) return;
  const p = document.createElement('p');
  p.className = 'error';
  p.setAttribute('role', 'alert');
  p.textContent = text;
  app.append(p);
});
