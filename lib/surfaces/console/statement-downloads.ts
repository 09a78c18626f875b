import { consoleUserWithAccess } from '@/lib/flows/auth/session';
import { findIntegration, type IntegrationView } from '@/lib/flows/integration-management/service';
import { plainText } from '@/lib/platform/http/plain-text';
import { MONTH_PATTERN } from '@/lib/flows/statements/figures';
import { findStatement, type Statement } from '@/lib/flows/statements/statements';

/**
 * What every statement download checks first (an issued statement's PDF and CSV, a preview's
 * PDF): a session allowed this download (a PDF, figures only: support too; the CSV of charged
 * queries, which lists identifiers: administrators) and an existing integration.
 */
export async function statementDownloadAccess(id: string, download: 'pdf' | 'charges_csv'): Promise<{ integration: IntegrationView; userId: number } | Response> {
  const user = await consoleUserWithAccess();
  if (!user) return plainText(401, 'Su sesión terminó. Vuelva a iniciar sesión en /admin/login.');
  if (download === 'charges_csv' && user.role !== 'admin') return plainText(403, 'El CSV de consultas cobradas lo descarga un administrador.');
  const integration = /^\d{1,9}$/.test(id) ? await findIntegration(Number(id)) : undefined;
  if (!integration) return plainText(404, 'No existe esa integración.');
  return { integration, userId: user.id };
}

/**
 * An issued statement's download: the checks above, then a statement already issued for that
 * month (downloading never issues one).
 */
export async function statementForDownload(
  params: Promise<{ id: string; mes: string }>,
  download: 'pdf' | 'charges_csv',
): Promise<{ statement: Statement; nombre: string; userId: number } | Response> {
  const { id, mes } = await params;
  const access = await statementDownloadAccess(id, download);
  if (access instanceof Response) return access;
  if (!MONTH_PATTERN.test(mes)) return plainText(404, 'No existe ese estado de cuenta.');
  const statement = await findStatement(access.integration.id, mes);
  if (!statement) return plainText(404, `Todavía no se ha emitido el estado de cuenta de ${mes}: emítelo desde «Saldo y estados de cuenta» de la integración.`);
  return { statement, nombre: access.integration.nombre, userId: access.userId };
}
