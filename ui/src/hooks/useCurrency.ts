// The currency values are shown in (ISO 4217, USD unless the person chose
// another); remembered on this device.
import { useEffect, useState } from 'react';

const STORAGE_CURRENCY = 'satchel.currency';

export function savedCurrency(): string {
  const saved = localStorage.getItem(STORAGE_CURRENCY);
  return saved && /^[A-Z]{3}$/.test(saved) ? saved : 'USD';
}

export function useCurrency(): [string, (currency: string) => void] {
  const [currency, setCurrency] = useState(savedCurrency);
  useEffect(() => {
    localStorage.setItem(STORAGE_CURRENCY, currency);
  }, [currency]);
  return [currency, setCurrency];
}
