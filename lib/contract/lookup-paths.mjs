// Where each lookup is served (the contract's paths under {base_url} = <origin>/api). Plain
// JavaScript so server.mjs, outside the app's bundle, reads the same list (lib/contract/paths.ts).
export const LOOKUP_PATHS = Object.freeze({
  renap: '/api/renap/buscar-cui',
  rtu_nits: '/api/rtu/nits',
  cui_nit: '/api/catalogos/cui-nit',
  rtu: '/api/catalogos/rtu',
  omisos: '/api/catalogos/omisos',
});
