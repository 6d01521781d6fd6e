// The widget's window is kept, hidden, when the person closes it; the next
// open shows the same page again. This runs `onShown` each time the page
// becomes visible again (not on its first showing).
import { useEffect, useEffectEvent } from 'react';

export function useShownAgain(onShown: () => void) {
  const shown = useEffectEvent(onShown);
  useEffect(() => {
    const changed = () => {
      if (document.visibilityState === 'visible') shown();
    };
    document.addEventListener('visibilitychange', changed);
    return () => document.removeEventListener('visibilitychange', changed);
  }, []);
}
