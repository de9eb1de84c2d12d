// Script of the embedding example (www/embed.html), loaded at the end of its body.
// Switching bundles reloads the viewer with another ?bundle= (URL-encoded), the option's text
// as its title and its data-about as its description.
const select = document.getElementById('bundle');
const frame = document.getElementById('memaudit-viewer');
const full = document.getElementById('open-full');
select.addEventListener('change', () => {
  const option = select.selectedOptions[0];
  const url = 'viewer/?bundle=' + encodeURIComponent(select.value) + '&title=' + encodeURIComponent(option.textContent.trim()) +
    (option.dataset.about ? '&about=' + encodeURIComponent(option.dataset.about) : '');
  frame.src = url;
  full.href = url;
});
