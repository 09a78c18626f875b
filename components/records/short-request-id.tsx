import { CopyableId } from '@/components/console/copyable-id';
import { REQUEST_ID_PREFIX } from '@/lib/core/request-ids/typed';

/** Enough of a request id to tell rows apart at a glance: the prefix and its first 10 characters. */
export function shortenedRequestId(requestId: string): string {
  const body = requestId.startsWith(REQUEST_ID_PREFIX) ? requestId.slice(REQUEST_ID_PREFIX.length) : requestId;
  return body.length > 10 ? `${REQUEST_ID_PREFIX}${body.slice(0, 10)}…` : requestId;
}

/** A records list's request id: short to read, whole to copy (the console's list and the portal's Consultas). */
export function ShortRequestId({ requestId }: { requestId: string }) {
  return <CopyableId value={requestId} shown={shortenedRequestId(requestId)} what="el id de solicitud" />;
}
