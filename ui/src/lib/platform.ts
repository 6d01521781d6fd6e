/** The desktop the page runs on, as far as the page's styles care: Linux
 * resolves named font families through fontconfig, one match per missing
 * family, so styles.css uses the generic families there. */
export function isLinuxDesktop(userAgent: string): boolean {
  return /\bLinux\b/.test(userAgent) && !/\bAndroid\b/.test(userAgent);
}

/** Marks the platform on <html> before the first render, so the first layout
 * already uses the platform's font families. */
export function markPlatform(root: HTMLElement, userAgent: string): void {
  if (isLinuxDesktop(userAgent)) root.dataset.platform = 'linux';
}
