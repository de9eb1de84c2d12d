// Script of the embedding example (www/embed.html), loaded at the end of its body.
// Switching bundles reloads the viewer with another ?bundle= (URL-encoded).
const select = document.getElementById('bundle');
const frame = document.getElementById('memaudit-viewer');
const full = document.getElementById('open-full');
select.addEventListener('change', () => {
  const url = 'viewer/?bundle=' + encodeURIComponent(select.value);
  frame.src = url;
  full.href = url;
});
