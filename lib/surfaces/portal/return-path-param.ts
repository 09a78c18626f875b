// The name of the field and parameter that carry the page a sign-in returns to, for the sign-in
// form: it renders in the browser too, so this module reads only lib/flows/auth/return-path.ts, which
// has no server-only imports.
export { RETURN_PATH_PARAM } from '@/lib/flows/auth/return-path';
