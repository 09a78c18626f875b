'use client';

import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import { ActionForm, Field } from '@/components/console/action-form';
import type { ActionResult } from '@/lib/flows/auth/action';
import { RECEPTOR_KIND_LABELS, type FoundReceptor } from '@/lib/presentation/invoice-labels';

type ServerAction<T> = (input: unknown) => Promise<ActionResult<T>>;

/**
 * The receptor's two steps, in the console and the portal alike: "Consultar" checks what was typed
 * and shows the receptor found (a NIT's name as SAT has it); only then "Guardar este receptor" saves
 * it. Changing the form hides the receptor found, so what is saved is always what was just read.
 * Once saved the form empties and its folding box closes: the page above it shows the new receptor.
 */
export function ReceptorForm({
  lookUp,
  save,
  hidden = {},
  whoseName,
  saveLabel = 'Guardar este receptor',
}: {
  lookUp: ServerAction<FoundReceptor>;
  save: ServerAction<undefined>;
  hidden?: Record<string, string | number>;
  /** Whose receptor it should be, for the sentence under a NIT's name ("del integrador", "de su empresa"). */
  whoseName: string;
  saveLabel?: string;
}) {
  const [found, setFound] = useState<FoundReceptor | null>(null);
  const [kind, setKind] = useState<keyof typeof RECEPTOR_KIND_LABELS>('nit');
  const router = useRouter();
  const wrapper = useRef<HTMLDivElement>(null);
  const saved = () => {
    setFound(null);
    wrapper.current?.querySelector('form')?.reset();
    setKind('nit');
    const box = wrapper.current?.closest('details');
    if (box) box.open = false;
    router.refresh();
  };
  return (
    <div className="stack" ref={wrapper}>
      <div onChange={() => setFound(null)}>
        <ActionForm action={lookUp} hidden={hidden} submitLabel="Consultar" pendingLabel="Consultando…" onSuccess={setFound} onNotSaved={() => setFound(null)} renderSuccess={() => null}>
          <div className="grid grid-3" style={{ alignItems: 'start' }}>
            <Field
              name="tipo"
              label="Tipo de receptor"
              options={Object.entries(RECEPTOR_KIND_LABELS).map(([value, label]) => ({ value, label }))}
              value={kind}
              onChange={(event) => setKind(event.currentTarget.value as keyof typeof RECEPTOR_KIND_LABELS)}
            />
            {kind !== 'cf' && (
              <Field
                name="identificador"
                label={kind === 'nit' ? 'NIT' : 'CUI'}
                hint={kind === 'nit' ? 'Con su dígito verificador, por ejemplo 576937-K. El nombre se consulta en SAT.' : '13 dígitos, como en el DPI.'}
                maxLength={40}
                autoComplete="off"
              />
            )}
            {kind === 'cui' && <Field name="nombre" label="Nombre" hint="Como aparece en el DPI." maxLength={255} autoComplete="off" />}
          </div>
        </ActionForm>
      </div>
      {found && (
        <ActionForm action={save} hidden={{ ...hidden, tipo: found.tipo, identificador: found.identificador, nombre: found.nombre, nombreMostrado: found.nombre }} submitLabel={saveLabel} className="stack" onSuccess={saved}>
          <p className="notice" role="status" data-testid="receptor-found">
            {found.tipo === 'nit' ? `SAT registra este NIT a nombre de: ${found.texto}. ` : `Receptor: ${found.texto}. `}
            {`Revise que sea ${whoseName} antes de guardarlo.`}
          </p>
        </ActionForm>
      )}
    </div>
  );
}
