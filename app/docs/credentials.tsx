'use client';

import { createContext, useContext, useState, type ReactNode } from 'react';

interface Credentials {
  login: string;
  token: string;
  setLogin: (value: string) => void;
  setToken: (value: string) => void;
}

const CredentialsContext = createContext<Credentials>({ login: '', token: '', setLogin: () => {}, setToken: () => {} });

/**
 * The integrator's credentials for every try-it panel of the page, typed once. Kept in this
 * page's memory only: never stored, gone on reload.
 */
export function CredentialsProvider({ children }: { children: ReactNode }) {
  const [login, setLogin] = useState('');
  const [token, setToken] = useState('');
  return <CredentialsContext.Provider value={{ login, token, setLogin, setToken }}>{children}</CredentialsContext.Provider>;
}

export function useCredentials(): Credentials {
  return useContext(CredentialsContext);
}

export function CredentialsForm() {
  const { login, token, setLogin, setToken } = useCredentials();
  return (
    <section className="credentials" aria-labelledby="credentials-title">
      <h2 id="credentials-title">Sus credenciales para probar</h2>
      <p className="muted">
        Se usan en las cinco consolas de prueba de esta página. Quedan solo en la memoria de esta pestaña: no se guardan ni se envían a otro lugar
        que a esta API.
      </p>
      <div className="try-it-grid">
        <label>
          x-integracion-login
          <input value={login} onChange={(event) => setLogin(event.target.value)} autoComplete="off" />
        </label>
        <label>
          x-integracion-token
          <input value={token} onChange={(event) => setToken(event.target.value)} type="password" autoComplete="off" />
        </label>
      </div>
    </section>
  );
}
