import { describe, expect, it } from 'vitest';
import { PRODUCTION, rejectedVariables } from '@/tests/support/production-env';
import { parseEnv } from '@/lib/root/settings';
import { DEVELOPMENT_FEL_SETTINGS } from './settings';

const FEL_PRODUCTION = {
  FEL_ENABLED: 'true',
  FEL_CERTIFIER_BASE_URL: 'https://certificador.feel.com.gt/fel',
  FEL_NIT_LOOKUP_BASE_URL: 'https://consultareceptores.feel.com.gt',
  FEL_SIGNING_USER: 'firma',
  FEL_SIGNING_KEY: 'llave-firma',
  FEL_API_USER: 'api',
  FEL_API_KEY: 'llave-api',
  FEL_ISSUER_COMMERCIAL_NAME: 'Consulta Contribuyentes',
  FEL_ISSUER_ESTABLISHMENT: '1',
  FEL_ISSUER_AFFILIATION: 'GEN',
  ISSUER_POSTAL_CODE: '01009',
  ISSUER_MUNICIPALITY: 'Guatemala',
  ISSUER_DEPARTMENT: 'Guatemala',
};

describe('FEL settings', () => {
  it("are on under npm run dev, against the simulator's /fel with its development credentials", () => {
    const development = parseEnv({ NODE_ENV: 'development', SIMULATOR_PORT: '4999' });
    expect(development).toMatchObject({
      FEL_ENABLED: true,
      FEL_CERTIFIER: 'infile',
      FEL_CERTIFIER_BASE_URL: 'http://127.0.0.1:4999/fel',
      FEL_NIT_LOOKUP_BASE_URL: 'http://127.0.0.1:4999/fel/receptores',
      FEL_SIGNING_USER: 'sim-fel-firma',
      FEL_API_KEY: 'sim-fel-llave-api',
      ISSUER_NIT: '576937K',
      FEL_ISSUER_ESTABLISHMENT: 1,
      FEL_ISSUER_AFFILIATION: 'GEN',
    });
    expect(DEVELOPMENT_FEL_SETTINGS.FEL_ISSUER_COMMERCIAL_NAME).toMatch(/desarrollo/i);
  });

  it('are off under tests, a built app and the CLI unless FEL_ENABLED turns them on', () => {
    expect(parseEnv({ NODE_ENV: 'test' }).FEL_ENABLED).toBe(false);
    expect(parseEnv({}).FEL_ENABLED).toBe(false);
    expect(parseEnv({ NODE_ENV: 'production', APP_ENV: 'development' }).FEL_ENABLED).toBe(false);
    expect(parseEnv({ NODE_ENV: 'test', FEL_ENABLED: 'true' }).FEL_ENABLED).toBe(true);
    expect(parseEnv({ NODE_ENV: 'development', FEL_ENABLED: 'false' }).FEL_ENABLED).toBe(false);
    expect(parseEnv(PRODUCTION).FEL_ENABLED).toBe(false);
  });

  it('refuse to start production with FEL on, naming every missing issuer and certifier setting', () => {
    expect(rejectedVariables({ ...PRODUCTION, FEL_ENABLED: 'true' }).sort()).toEqual(
      Object.keys(FEL_PRODUCTION)
        .filter((name) => name !== 'FEL_ENABLED')
        .sort(),
    );
    for (const name of Object.keys(FEL_PRODUCTION).filter((key) => key !== 'FEL_ENABLED')) {
      expect(rejectedVariables({ ...PRODUCTION, ...FEL_PRODUCTION, [name]: '' })).toEqual([name]);
    }
    const settings = parseEnv({ ...PRODUCTION, ...FEL_PRODUCTION });
    expect(settings).toMatchObject({ FEL_ENABLED: true, ISSUER_NIT: '576937K', FEL_ISSUER_ESTABLISHMENT: 1 });
  });

  it('check the issuer and the URLs, and never echo a credential', () => {
    expect(rejectedVariables({ ...PRODUCTION, ...FEL_PRODUCTION, ISSUER_NIT: '576937-1' })).toEqual(['ISSUER_NIT']);
    // A CUI is a NIT for a statement, not for a DTE's Emisor.
    expect(rejectedVariables({ ...PRODUCTION, ...FEL_PRODUCTION, ISSUER_NIT: '1587564440904' })).toEqual(['ISSUER_NIT']);
    expect(parseEnv({ ...PRODUCTION, ISSUER_NIT: '1587564440904' }).ISSUER_NIT).toBe('1587564440904');
    expect(rejectedVariables({ ...PRODUCTION, ...FEL_PRODUCTION, FEL_ISSUER_AFFILIATION: 'OTRO' })).toEqual(['FEL_ISSUER_AFFILIATION']);
    expect(rejectedVariables({ ...PRODUCTION, ...FEL_PRODUCTION, FEL_ISSUER_ESTABLISHMENT: '0' })).toEqual(['FEL_ISSUER_ESTABLISHMENT']);
    expect(rejectedVariables({ ...PRODUCTION, ...FEL_PRODUCTION, FEL_CERTIFIER_BASE_URL: 'http://certificador.example.gt/fel' })).toEqual(['FEL_CERTIFIER_BASE_URL']);
    const wrong = () => parseEnv({ ...PRODUCTION, ...FEL_PRODUCTION, FEL_SIGNING_KEY: 'llave-secreta-firma', ISSUER_NIT: 'x' });
    expect(wrong).toThrow(/ISSUER_NIT/);
    expect(wrong).not.toThrow(/llave-secreta-firma/);
  });
});
