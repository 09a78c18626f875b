/** Where each lookup is served, by lookup kind (lib/contract/paths.ts gives it its type). */
export declare const LOOKUP_PATHS: Readonly<Record<'renap' | 'rtu_nits' | 'cui_nit' | 'rtu' | 'omisos', string>>;
