/** Expected outcomes are values, not exceptions: callers branch on `ok`. */
export type Result<T, Code extends string = string> = { ok: true; value: T } | { ok: false; error: { code: Code; message: string } };

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
export const fail = <Code extends string>(code: Code, message: string): { ok: false; error: { code: Code; message: string } } => ({
  ok: false,
  error: { code, message },
});
