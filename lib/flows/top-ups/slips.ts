// A deposit slip an integrator attaches: a photo (PNG, JPEG, WebP) or a PDF, at most 5 MB. Its
// type is read from its first bytes, never taken from the browser's word or the file's name: the
// console shows an image inline, and a file that only says it is one must not get there. A PDF is
// only ever downloaded.
import { UPLOADED_FILE_CACHE_CONTROL, UPLOADED_FILE_CONTENT_SECURITY_POLICY, type UploadedFile } from '@/lib/platform/http/uploaded-file';

export const MAX_SLIP_BYTES = 5 * 1024 * 1024;

export type SlipContentType = 'image/png' | 'image/jpeg' | 'image/webp' | 'application/pdf';

export const SLIP_MESSAGES = {
  tooLarge: 'La boleta pesa más de 5 MB: envíe una foto más liviana o un PDF de menos de 5 MB.',
  wrongType: 'La boleta debe ser una imagen (PNG, JPG o WebP) o un PDF; el archivo enviado no es ninguno de ellos.',
} as const;

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  return bytes.length >= offset + signature.length && signature.every((byte, index) => bytes[offset + index] === byte);
}

/** The slip's real type, from its magic bytes; undefined when it is none of those accepted. */
export function slipContentType(bytes: Uint8Array): SlipContentType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  return undefined;
}

/** The slip accepted as it will be stored, or why it is refused. */
export function readSlip(bytes: Uint8Array): { contentType: SlipContentType; bytes: Uint8Array } | { message: string } {
  if (bytes.length > MAX_SLIP_BYTES) return { message: SLIP_MESSAGES.tooLarge };
  const contentType = slipContentType(bytes);
  if (!contentType) return { message: SLIP_MESSAGES.wrongType };
  return { contentType, bytes };
}

const IMAGE_SLIP_TYPES: ReadonlySet<string> = new Set<SlipContentType>(['image/png', 'image/jpeg', 'image/webp']);

/** A photo, which a page may show: only the image types a slip is checked to be, never any image/*. */
export function isImageSlip(contentType: string): boolean {
  return IMAGE_SLIP_TYPES.has(contentType);
}

export function slipFileName(requestId: number, contentType: string): string {
  const extension = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'application/pdf': 'pdf' }[contentType] ?? 'bin';
  return `boleta-recarga-${requestId}.${extension}`;
}

export const SLIP_NOT_FOUND = 'No existe esa boleta.';

/** A request id as typed in an address: a positive integer the table can hold, else nothing. */
export function slipRequestId(text: string): number | undefined {
  if (!/^[1-9]\d{0,9}$/.test(text)) return undefined;
  const id = Number(text);
  return id <= 2_147_483_647 ? id : undefined;
}

/** What a slip's answer says of its content (lib/platform/http/uploaded-file.ts). */
export const SLIP_CONTENT_SECURITY_POLICY = UPLOADED_FILE_CONTENT_SECURITY_POLICY;
export const SLIP_CACHE_CONTROL = UPLOADED_FILE_CACHE_CONTROL;

/**
 * A stored slip as a file to answer with (uploadedFileResponse): a photo is shown in the page when
 * `imageDisposition` says so (the console's list); a PDF, or anything not a photo, is always a
 * download: a browser's PDF viewer runs a PDF's scripts.
 */
export function slipFile(requestId: number, slip: { contentType: string; content: Uint8Array }, imageDisposition: 'inline' | 'attachment'): UploadedFile {
  return {
    content: slip.content,
    contentType: slip.contentType,
    fileName: slipFileName(requestId, slip.contentType),
    disposition: isImageSlip(slip.contentType) ? imageDisposition : 'attachment',
  };
}
