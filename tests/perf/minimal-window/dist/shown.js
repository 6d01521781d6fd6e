// Marks the page shown as Satchel's pages do (ui/src/api.ts, markShownAfterPaint):
// once the frame after the one with the page has begun, a `performance` mark and
// the app's command, which prints `shown page` for the desktop benchmark.
requestAnimationFrame(() =>
  requestAnimationFrame(() => {
    performance.mark('shown page');
    window.__TAURI_INTERNALS__.invoke('mark_shown', { what: 'page' });
  }),
);
