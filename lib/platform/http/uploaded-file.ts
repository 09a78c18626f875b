// A file someone uploaded (a deposit slip), served back: its checked type, never sniffed by the
// browser, under a name of its own, and nothing in it runs: opened in the browser it gets no
// scripts and no same-origin rights, and no other site may frame it. Its route writes these
// headers itself (lib/platform/http/route-headers.ts).

export const UPLOADED_FILE_CONTENT_SECURITY_POLICY = "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'";
export const UPLOADED_FILE_CACHE_CONTROL = 'private, no-store';

export interface UploadedFile {
  content: Uint8Array;
  /** The type its first bytes were checked to be when it was taken. */
  contentType: string;
  fileName: string;
  /** inline: shown in the page (a photo); attachment: always downloaded. */
  disposition: 'inline' | 'attachment';
}

export function uploadedFileResponse(file: UploadedFile): Response {
  return new Response(new Uint8Array(file.content), {
    headers: {
      'content-type': file.contentType,
      'content-disposition': `${file.disposition}; filename="${file.fileName}"`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': UPLOADED_FILE_CONTENT_SECURITY_POLICY,
      'cache-control': UPLOADED_FILE_CACHE_CONTROL,
    },
  });
}
