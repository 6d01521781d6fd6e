// A connected site or program switched its network (wallet_switchEthereumChain):
// what it asks for from now on is checked against that network, so the window
// says so rather than changing it silently. Shown above any page until the
// person dismisses it; a newer switch replaces it.
import { useEffect, useRef, useState } from 'react';
import type { SiteSwitched } from '../../api';
import { api } from '../../api';
import { useI18n } from '../../i18n';

export function SiteSwitchNotice() {
  const { t } = useI18n();
  const [switched, setSwitched] = useState<SiteSwitched | null>(null);
  const watching = useRef(false);
  useEffect(() => {
    if (watching.current) return;
    watching.current = true;
    api.watchSiteSwitches(setSwitched).catch(() => {
      watching.current = false;
    });
  }, []);
  if (!switched) return null;
  const who = switched.local ? t('switch.program') : switched.origin;
  return (
    <div className="notice info site-switched" role="status" data-testid="site-switched">
      <span>{t('switch.text', { who, network: switched.network, chainId: switched.chainId })}</span>
      <button type="button" className="secondary" data-testid="site-switched-dismiss" onClick={() => setSwitched(null)}>
        {t('switch.dismiss')}
      </button>
    </div>
  );
}
