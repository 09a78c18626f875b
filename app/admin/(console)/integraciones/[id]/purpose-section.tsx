import { ActionForm, Field } from '@/components/console/action-form';
import { setPurposeAction } from '../actions';

/**
 * What the integrator declared it looks identifiers up for: personal data may be used only for a
 * declared purpose (Decreto 57-2008, art. 30). Printed on its monthly statements too.
 */
export function PurposeSection({ integrationId, purpose, isAdmin }: { integrationId: number; purpose: string; isAdmin: boolean }) {
  return (
    <section className="card" aria-labelledby="purpose-title">
      <h2 id="purpose-title">Finalidad declarada del uso de los datos</h2>
      <p data-testid="integration-purpose">{purpose || <span className="muted">Sin declarar: pregunte al integrador para qué consulta NIT y CUI.</span>}</p>
      {isAdmin && (
        <ActionForm action={setPurposeAction} hidden={{ integrationId }} submitLabel="Guardar finalidad" className="stack">
          <Field
            name="finalidad"
            label="Finalidad declarada"
            hint="Lo que el integrador declaró por escrito, por ejemplo: verificar la identidad y la situación tributaria de clientes al abrir una cuenta. Queda en la auditoría y en sus estados de cuenta."
            maxLength={500}
            defaultValue={purpose}
            data-testid="purpose-input"
          />
        </ActionForm>
      )}
    </section>
  );
}
