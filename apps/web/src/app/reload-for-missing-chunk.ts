/**
 * A page that has been open for less than this when a chunk fails to load is not one left over
 * from before a deploy: reloading would not help it, and a reload that fails again must not loop.
 */
const FRESH_PAGE_MS = 30_000;

/**
 * For a page's chunk that could not be loaded (routes.tsx): reloads and says so, or says the
 * failure stands. Pages are chunks fetched on first use, named by their content's hash, and a
 * deploy removes the old build's files: a tab opened before it fails at the first page it had
 * not visited yet. index.html is never cached, so a reload brings the new build's names. Offline,
 * or in a page just loaded, the error stands instead (React Router's error page).
 */
export function reloadForMissingChunk(): boolean {
  if (!navigator.onLine || performance.now() < FRESH_PAGE_MS) return false;
  window.location.reload();
  return true;
}
