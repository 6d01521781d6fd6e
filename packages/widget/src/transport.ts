// How the widget SDK reaches the widget. In a Tauri app: the Satchel plugin's
// commands over Tauri's IPC (`plugin:satchel|<method>`), which the host's
// capability grants (`satchel:default`: the spec's application methods).

import { invoke } from '@tauri-apps/api/core';

/** Calls one of the widget's methods with its arguments. A failure rejects
 * with the widget's `{code, message}` (or the host's permission refusal). */
export interface Transport {
  call<T>(method: string, args?: Record<string, unknown>): Promise<T>;
}

/** The Satchel Tauri plugin, from a page of the host application. */
export function tauriTransport(): Transport {
  return {
    call: <T>(method: string, args?: Record<string, unknown>) =>
      invoke<T>(`plugin:satchel|${method}`, args ?? {}),
  };
}
