// "Save address" beside an address the person met (an activity's counterparty):
// a name, then it is in the address book.
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { useI18n } from '../../i18n';
import { useAction } from '../../hooks/useAction';
import { ErrorNotice } from '../../components/ErrorNotice';

export function SaveAddress({ address }: { address: string }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [saved, setSaved] = useState(false);
  const { busy, error, run } = useAction();
  if (saved) {
    return (
      <p className="muted small" role="status" data-testid="save-address-done">
        {t('book.savedAs', { name })}
      </p>
    );
  }
  if (!open) {
    return (
      <button type="button" className="link-button" onClick={() => setOpen(true)} data-testid="save-address">
        {t('book.saveThis')}
      </button>
    );
  }
  function save(e: FormEvent) {
    e.preventDefault();
    void run(async () => {
      await api.saveAddress(address, name);
      setSaved(true);
    });
  }
  return (
    <form className="book-entry" onSubmit={save}>
      <input className="text-input" aria-label={t('book.name')} value={name} onChange={(e) => setName(e.target.value)} maxLength={64} autoFocus data-testid="save-address-name" />
      <button type="submit" className="link-button" disabled={busy || !name.trim()}>
        {t('book.save')}
      </button>
      <ErrorNotice error={error} />
    </form>
  );
}
