import { EmailAddress } from '@/components/email-address';
import { JOB_CREATOR_LABELS, type JobCreator } from '@/lib/flows/bulk/origin';

/** "Creado por" on a job's page, the portal's and the console's: a person by name and e-mail, or the API. */
export function JobCreatorText({ creator }: { creator: JobCreator }) {
  if (creator.kind !== 'portal') return <>{JOB_CREATOR_LABELS[creator.kind]}</>;
  return (
    <>
      {creator.name} (<EmailAddress email={creator.email} />), desde el portal
    </>
  );
}
