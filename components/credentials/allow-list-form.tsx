'use client';

import { ActionForm, Field } from '@/components/console/action-form';
import type { ActionResult } from '@/lib/flows/auth/action';

/**
 * Editing an integration's IP allow-list in the portal: the console's field and
 * words, and a question before saving a list that leaves out the address the person is using now
 * (its server refuses such a list unless the question was answered).
 */
export function AllowListForm({
  allowedNetworks,
  clientAddress,
  save,
}: {
  allowedNetworks: string[];
  /** The browser's address as the API's allow-lists see it; null when it cannot be read. */
  clientAddress: string | null;
  save: (input: unknown) => Promise<ActionResult<undefined>>;
}) {
  return (
    <ActionForm action={save} submitLabel="Guardar direcciones" confirmation={{ kind: 'allow_list', clientAddress }}>
      <Field
        name="direcciones"
        label="Direcciones y rangos permitidos"
        hint={`IPv4 o IPv6, direcciones o rangos CIDR separados por comas (por ejemplo 203.0.113.7, 198.51.100.0/24, 2001:db8::/32). Vacío: cualquier dirección. Ahora está conectado desde ${clientAddress ?? 'una dirección que no se pudo leer'}.`}
        defaultValue={allowedNetworks.join(', ')}
        data-testid="allowed-networks-input"
      />
    </ActionForm>
  );
}
