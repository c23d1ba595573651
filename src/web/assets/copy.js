// Progressive enhancement: a Copy button beside each read-only field. Without scripts the buttons
// stay hidden and the field is selected and copied by hand.
for (const button of document.querySelectorAll('button[data-copy]')) {
  const field = document.getElementById(button.dataset.copy);
  const status = document.getElementById('copy-status');
  if (!field) continue;
  button.hidden = false;
  button.addEventListener('click', async () => {
    field.focus();
    field.select();
    let copied = false;
    try {
      await navigator.clipboard.writeText(field.value);
      copied = true;
    } catch {
      copied = document.execCommand && document.execCommand('copy');
    }
    if (status) status.textContent = copied ? 'Copied to the clipboard.' : 'Copy did not work here: press Ctrl+C (or Cmd+C) to copy the selected text.';
    button.firstChild.textContent = copied ? 'Copied' : 'Copy';
  });
}
