// Settings → Address book: the person's saved addresses (kept on this device),
// each with a name to rename and Remove; a form to add one; the book out as CSV
// (to copy) and in from pasted CSV, with what was taken and what was not.
import { useEffect, useState, type FormEvent } from 'react';
import { api, type ImportOutcome, type SavedAddress } from '../../api';
import { useI18n } from '../../i18n';
import { useAction } from '../../hooks/useAction';
import { useEscape } from '../../hooks/useEscape';
import { Header } from '../../components/Header';
import { ErrorNotice } from '../../components/ErrorNotice';
import { NamedAddress } from '../../components/NamedAddress';
import { CopyButton } from '../../components/CopyButton';

export function AddressBook({ onBack }: { onBack: () => void }) {
  const { t } = useI18n();
  const [saved, setSaved] = useState<SavedAddress[] | null>(null);
  const [name, setName] = useState('');
  const [address, setAddress] = useState('');
  const [renaming, setRenaming] = useState<{ address: string; name: string } | null>(null);
  const [csv, setCsv] = useState<string | null>(null);
  const [pasted, setPasted] = useState('');
  const [imported, setImported] = useState<ImportOutcome | null>(null);
  const { busy, error, run } = useAction();
  useEscape(onBack);

  useEffect(() => {
    void run(async () => setSaved(await api.getSavedAddresses()));
  }, [run]);

  function add(e: FormEvent) {
    e.preventDefault();
    void run(async () => {
      setSaved(await api.saveAddress(address.trim(), name));
      setName('');
      setAddress('');
    });
  }

  function rename(e: FormEvent) {
    e.preventDefault();
    if (!renaming) return;
    void run(async () => {
      setSaved(await api.saveAddress(renaming.address, renaming.name));
      setRenaming(null);
    });
  }

  const importPasted = () =>
    run(async () => {
      setImported(await api.importAddressBook(pasted));
      setPasted('');
      setSaved(await api.getSavedAddresses());
    });

  return (
    <div className="subpage">
      <Header title={t('book.title')} onBack={onBack} />
      <main className="page">
        <ErrorNotice error={error} />
        <section className="card" aria-labelledby="book-list" data-testid="address-book">
          <div id="book-list" className="muted">
            {t('book.saved')}
          </div>
          {saved !== null && saved.length === 0 && <p className="muted small">{t('book.none')}</p>}
          {saved?.map((entry) =>
            renaming?.address === entry.address ? (
              <form key={entry.address} className="book-entry" onSubmit={rename}>
                <input className="text-input" aria-label={t('book.name')} data-testid="book-rename-name" value={renaming.name} onChange={(e) => setRenaming({ ...renaming, name: e.target.value })} autoFocus />
                <button type="submit" className="link-button" disabled={busy}>
                  {t('book.saveName')}
                </button>
              </form>
            ) : (
              <div key={entry.address} className="book-entry" data-testid="book-entry">
                <span className="label">
                  <span className="book-name">{entry.name}</span>
                  <NamedAddress address={entry.address} testId="book-entry-address" />
                </span>
                <span className="book-actions">
                  <button type="button" className="link-button" onClick={() => setRenaming({ address: entry.address, name: entry.name })}>
                    {t('book.rename')}
                  </button>
                  <button type="button" className="link-button" onClick={() => void run(async () => setSaved(await api.forgetAddress(entry.address)))}>
                    {t('book.remove')}
                  </button>
                </span>
              </div>
            ),
          )}
        </section>
        <form className="card" onSubmit={add} aria-labelledby="book-add">
          <h2 id="book-add" className="small">
            {t('book.add')}
          </h2>
          <div className="field">
            <label htmlFor="book-name">{t('book.name')}</label>
            <input id="book-name" className="text-input" value={name} onChange={(e) => setName(e.target.value)} maxLength={64} />
          </div>
          <div className="field">
            <label htmlFor="book-address">{t('book.address')}</label>
            <input id="book-address" className="text-input" value={address} onChange={(e) => setAddress(e.target.value)} placeholder="0x…" spellCheck={false} autoComplete="off" translate="no" />
          </div>
          <button type="submit" className="primary" disabled={busy || !name.trim() || !address.trim()}>
            {t('book.save')}
          </button>
        </form>
        <section className="card" aria-labelledby="book-csv">
          <h2 id="book-csv" className="small">
            {t('book.csv')}
          </h2>
          <div className="actions">
            <button type="button" className="secondary" onClick={() => void run(async () => setCsv(await api.exportAddressBook()))} data-testid="book-export">
              {t('book.export')}
            </button>
          </div>
          {csv !== null && (
            <>
              <pre className="sign-message hex" data-testid="book-csv-out">
                {csv}
              </pre>
              <CopyButton text={csv} label={t('book.copy')} />
            </>
          )}
          <div className="field">
            <label htmlFor="book-import">{t('book.importLabel')}</label>
            <textarea id="book-import" className="text-input" rows={4} value={pasted} onChange={(e) => setPasted(e.target.value)} placeholder="name,address" spellCheck={false} />
          </div>
          <button type="button" className="secondary" disabled={busy || !pasted.trim()} onClick={() => void importPasted()} data-testid="book-import">
            {t('book.import')}
          </button>
          {imported && (
            <div className={`notice ${imported.refused.length ? 'warning' : 'success'}`} role="status" data-testid="book-imported">
              <p>{t('book.imported', { added: imported.added, renamed: imported.renamed })}</p>
              {imported.refused.map((line) => (
                <p key={line} className="small">
                  {line}
                </p>
              ))}
            </div>
          )}
        </section>
      </main>
    </div>
  );
}
