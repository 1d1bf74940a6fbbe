/** Hands bytes to the browser as a download (an anchor's click on an object URL, then let go). */
export function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // The click has handed the URL over; the browser keeps what it is saving.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
