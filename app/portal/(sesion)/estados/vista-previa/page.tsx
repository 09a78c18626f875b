import type { Metadata } from 'next';
import { PageHeader } from '@/components/console/page-header';
import { StatementPreviewDocument } from '@/components/statements/statement-preview';
import { env } from '@/lib/platform/settings/env';
import { BILLING_READERS } from '@/lib/surfaces/portal/page-access';
import { requirePortalPage } from '@/lib/surfaces/portal/session';
import { portalStatementPreview, STATEMENT_PREVIEW_MARK } from '@/lib/surfaces/portal/statements';

export const metadata: Metadata = { title: 'Vista previa del mes en curso' };

// The running month's statement as it would read now, for those who read statements: the same
// figures and document as the console's preview, marked as a preview, with its PDF.
export default async function PortalStatementPreviewPage() {
  const user = await requirePortalPage(BILLING_READERS);
  const preview = await portalStatementPreview(user);
  return (
    <>
      <PageHeader
        title="Vista previa del mes en curso"
        back={{ href: '/portal/estados', label: 'Estados de cuenta' }}
        description="Lo que diría el estado de cuenta de este mes con las cifras de este momento. El estado de cuenta del mes se emite, con número, el día 1 del mes siguiente."
        actions={
          preview.ok && (
            <a className="button" href="/portal/estados/vista-previa/pdf" download data-testid="portal-preview-pdf">
              Descargar PDF de la vista previa
            </a>
          )
        }
      />
      <p className="notice warn" data-testid="preview-mark">
        <strong>{STATEMENT_PREVIEW_MARK}.</strong> No tiene número ni se guarda; sus cifras cambian con cada consulta, recarga o ajuste de hoy.
      </p>
      {preview.ok ? (
        <StatementPreviewDocument preview={preview.value} serviceName={env().SERVICE_NAME} />
      ) : (
        <p className="notice error" role="alert" data-testid="preview-problem">
          {preview.error.message}
        </p>
      )}
    </>
  );
}
