// Under an empty "To": the person's saved addresses and the addresses they sent
// to lately, to pick instead of pasting (pasting from history is how poisoned
// look-alikes get chosen).
import { useEffect, useState } from 'react';
import { api, type SavedAddress } from '../../api';
import { useI18n } from '../../i18n';
import { shortAddress } from '../../lib/format';

/** The most of each kind offered. */
const OFFERED = 5;

export function RecipientPicker({ onPick }: { onPick: (address: string) => void }) {
  const { t } = useI18n();
  const [saved, setSaved] = useState<SavedAddress[]>([]);
  const [recent, setRecent] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    void Promise.all([api.getSavedAddresses().catch(() => []), api.getRecentRecipients().catch(() => [])]).then(([book, sentTo]) => {
      if (!live) return;
      const known = new Set(book.map((s) => s.address.toLowerCase()));
      setSaved(book.slice(0, OFFERED));
      setRecent(sentTo.filter((a) => !known.has(a.toLowerCase())).slice(0, OFFERED));
    });
    return () => {
      live = false;
    };
  }, []);
  if (saved.length === 0 && recent.length === 0) return null;
  return (
    <div className="recipient-picker" data-testid="recipient-picker">
      {saved.map((s) => (
        <button key={s.address} type="button" className="chip" title={s.address} onClick={() => onPick(s.address)}>
          {s.name} <span className="muted" translate="no">{shortAddress(s.address)}</span>
        </button>
      ))}
      {recent.map((address) => (
        <button key={address} type="button" className="chip" title={address} onClick={() => onPick(address)}>
          <span className="muted">{t('send.recent')}</span> <span translate="no">{shortAddress(address)}</span>
        </button>
      ))}
    </div>
  );
}
