/** Longest field the console's and the portal's forms send; anything longer is not one of their fields. */
export const MAX_FORM_FIELD_LENGTH = 200;
const MAX_FORM_BYTES = 8 * 1024;

/**
 * A console form's text fields as a browser posts them (a search, the full export), at most
 * 8 KiB and 200 characters a field; null when it is larger or cannot be read.
 */
export async function postedFormFields(request: Request): Promise<URLSearchParams | null> {
  const length = Number(request.headers.get('content-length') ?? '0');
  if (length > MAX_FORM_BYTES) return null;
  try {
    const form = await request.formData();
    const fields = new URLSearchParams();
    for (const [key, value] of form.entries()) {
      if (typeof value !== 'string' || value.length > MAX_FORM_FIELD_LENGTH) return null;
      if (!key.startsWith('$ACTION')) fields.set(key, value);
    }
    return fields;
  } catch {
    return null;
  }
}
