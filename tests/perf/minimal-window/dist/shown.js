// Marks the page shown as Satchel's pages do (ui/src/api.ts, markShownAfterPaint):
// once the frame after the one with the page has begun, a `performance` mark and
// the app's command, which prints `shown page` for the desktop benchmark.
requestAnimationFrame(() =>
  requestAnimationFrame(() => {
    performance.mark('shown page');
    window.__TAURI_INTERNALS__.invoke('mark_shown', { what: 'page' });
    // Its start, as Satchel's page tells its own (ui/src/api: startTimeline).
    const shown = performance.getEntriesByName('shown page')[0].startTime.toFixed(0);
    window.__TAURI_INTERNALS__.invoke('mark_shown', {
      what: `timeline origin=${performance.timeOrigin.toFixed(0)} shown=${shown}`,
    });
  }),
);
